/**
 * The Docker engine as the harness sees it: connecting (DOCKER_UNAVAILABLE when it cannot), checking that an
 * image is present locally (IMAGE_NOT_FOUND: we never pull), and choosing how the container is networked.
 */
import { createServer } from 'node:net';
import { getContainerRuntimeClient, ImageName, type ContainerRuntimeClient } from 'testcontainers';
import { HarnessError } from '../errors.js';
import { within } from '../stop/within.js';

export type NetworkMode = 'host' | 'bridge';
export type NetworkRequest = 'auto' | NetworkMode;

const CONNECT_TIMEOUT_MS = 20_000;

/**
 * Ryuk, testcontainers' reaper, runs from an image that has to be pulled; with no registry that fails every
 * start. Off unless the user decided otherwise; our own cleanup removes containers instead
 * (container-lifecycle.ts, through the stop room's finalizers).
 */
export function disableRyukByDefault(env: NodeJS.ProcessEnv = process.env): void {
  if (env.TESTCONTAINERS_RYUK_DISABLED === undefined) env.TESTCONTAINERS_RYUK_DISABLED = 'true';
}

export async function connectDocker(): Promise<ContainerRuntimeClient> {
  disableRyukByDefault();
  try {
    return await within(getContainerRuntimeClient(), CONNECT_TIMEOUT_MS, () => {
      throw new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`);
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError('DOCKER_UNAVAILABLE', `cannot reach a Docker engine: ${reason}`, {
      hint: 'start the engine (e.g. `dockerd`, or `apt-get install docker.io` first) or point DOCKER_HOST at one; `docker info` must answer',
      cause: error,
    });
  }
}

/** Fails with IMAGE_NOT_FOUND unless the image is in the engine's local store. */
export async function requireLocalImage(client: ContainerRuntimeClient, image: string): Promise<void> {
  let name: ImageName;
  try {
    name = ImageName.fromString(image);
  } catch (error) {
    throw new HarnessError('USAGE', `not an image name: ${image}`, { field: '--image', cause: error });
  }
  let present: boolean;
  try {
    present = await client.image.exists(name);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError('DOCKER_UNAVAILABLE', `the Docker engine failed to list images: ${reason}`, { cause: error });
  }
  if (!present) {
    throw new HarnessError('IMAGE_NOT_FOUND', `image ${image} is not in the local Docker image store, and run --image never pulls`, {
      field: '--image',
      hint: 'build or load it first: `npm run image:reference` builds the reference image; `docker load -i FILE` loads a saved one',
    });
  }
}

export interface EngineFacts {
  operatingSystem: string;
  operatingSystemType: string;
  /** DOCKER_HOST as the user set it, if any. */
  dockerHost?: string;
  /** TESTCONTAINERS_HOST_OVERRIDE as the user set it, if any. */
  hostOverride?: string;
}

export interface NetworkChoice {
  mode: NetworkMode;
  /** Why, in a few words, for the report. */
  reason: string;
  /** Host on which the harness reaches a mapped port (bridge), or the container (host). */
  reachableHost: string;
}

/**
 * Host networking needs a Linux engine on this machine: Docker Desktop and friends run the engine in a VM,
 * whose "host" is not ours, and a remote DOCKER_HOST is another machine altogether.
 */
export function chooseNetworkMode(facts: EngineFacts, request: NetworkRequest = 'auto'): NetworkChoice {
  const remote = remoteHost(facts);
  if (request === 'host') return { mode: 'host', reason: 'requested', reachableHost: '127.0.0.1' };
  if (request === 'bridge') return { mode: 'bridge', reason: 'requested', reachableHost: remote ?? '127.0.0.1' };
  if (remote !== undefined) return { mode: 'bridge', reason: `remote engine at ${remote}`, reachableHost: remote };
  if (facts.operatingSystemType.toLowerCase() !== 'linux') {
    return { mode: 'bridge', reason: `engine OS is ${facts.operatingSystemType}`, reachableHost: '127.0.0.1' };
  }
  if (/docker desktop|rancher desktop|orbstack|boot2docker|colima/i.test(facts.operatingSystem)) {
    return { mode: 'bridge', reason: `engine runs in a VM (${facts.operatingSystem})`, reachableHost: '127.0.0.1' };
  }
  return { mode: 'host', reason: 'local Linux engine', reachableHost: '127.0.0.1' };
}

function remoteHost(facts: EngineFacts): string | undefined {
  if (facts.hostOverride) return facts.hostOverride;
  if (!facts.dockerHost || facts.dockerHost.startsWith('unix:') || facts.dockerHost.startsWith('npipe:')) return undefined;
  try {
    const host = new URL(facts.dockerHost).hostname;
    return host === '' || host === 'localhost' || host === '127.0.0.1' ? undefined : host;
  } catch {
    return undefined;
  }
}

export function engineFacts(client: ContainerRuntimeClient, env: NodeJS.ProcessEnv = process.env): EngineFacts {
  return {
    operatingSystem: client.info.containerRuntime.operatingSystem ?? '',
    operatingSystemType: client.info.containerRuntime.operatingSystemType ?? '',
    dockerHost: env.DOCKER_HOST,
    hostOverride: env.TESTCONTAINERS_HOST_OVERRIDE,
  };
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

/**
 * Where the harness's JWKS server listens for a container behind a mapped port, which reaches it at
 * `candidates` (what host.docker.internal stands for in it, or its network gateways). When one is an
 * address of this machine (a local Linux engine: docker0), listen there only, not on every interface.
 * Otherwise (an engine in a VM, whose gateway lives inside the VM and forwards to this machine) the one
 * choice that works is every address. The JWKS holds public keys only either way.
 */
export function jwksListenHostFor(candidates: readonly string[], localAddresses: readonly string[]): string {
  const local = new Set(localAddresses);
  return candidates.find((address) => address !== '' && local.has(address)) ?? '0.0.0.0';
}
