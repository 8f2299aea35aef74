/**
 * `run --image`: start an implementation shipped as a container image, wait for the target profile it writes
 * (see docs/containers.md for the contract), and hand the profile's path to the engine.
 *
 * Failures before the profile is usable are harness errors (exit 2) that quote the container's last log
 * lines: IMAGE_START_FAILED (it could not start or exited), IMAGE_PROFILE_TIMEOUT (no profile in time),
 * PROFILE_INVALID and friends (loadProfile's codes). The container is removed in every case, unless kept.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { HarnessError, isHarnessError } from '../errors.js';
import {
  CONTAINER_PROFILE_DIR,
  CONTRACT_ENV_NAMES,
  ENV_BASE_URL,
  ENV_HARNESS_HOST,
  ENV_HOOKS,
  ENV_HOST,
  ENV_NETWORK,
  ENV_PORT,
  ENV_PROFILE_OUT,
  HOST_GATEWAY_NAME,
  PROFILE_FILE_NAME,
} from '../image/contract.js';
import { loadProfile } from '../profile/index.js';
import { ContainerLifecycle, type ProfileFolder } from './container-lifecycle.js';
import { ContainerLog } from './container-log.js';
import { bridgeJwksListenHost } from './gateway.js';
import { IMAGE_TARGET_LABEL, IMAGE_TARGET_ROLE, removeContainer } from './inventory.js';
import { waitForProfile } from './profile-wait.js';
import { NO_PULL, NO_WAIT } from './no-wait.js';
import {
  chooseNetworkMode,
  connectDocker,
  engineFacts,
  freeLoopbackPort,
  requireLocalImage,
  type NetworkMode,
  type NetworkRequest,
} from './runtime.js';

export interface ImageTargetOptions {
  /** Local image reference, e.g. `access-conformance-reference:0.1.0`. Never pulled. */
  image: string;
  /** Extra environment (--image-env K=V); may not override the contract's CONFORMANCE_* names. */
  env: Record<string, string>;
  /** Port the implementation listens on (--image-port). Default: a free port (host network), 8080 (bridge). */
  port?: number;
  /** Bound on the wait for the profile, from the container's start. */
  startupTimeoutMs: number;
  /** Leave the container running after the run (and print how to remove it). */
  keepContainer: boolean;
  /** The report folder: container.log goes there. */
  reportDir: string;
  /** Ask the implementation to offer the test hooks (CONFORMANCE_HOOKS=1). */
  hooks: boolean;
  /** `auto` (default): host networking on a local Linux engine, a mapped port otherwise. */
  network?: NetworkRequest;
}

export interface ImageTarget {
  /** The profile the container wrote, validated; stays readable until stop(). */
  profilePath: string;
  networkMode: NetworkMode;
  /**
   * Where the harness's JWKS servers must listen: undefined on the host network (the profile's URL names
   * 127.0.0.1, bound as is); behind a mapped port the URL names host.docker.internal: the address that
   * name has in the container when it is this machine's (docker0 on a local Linux engine), else `0.0.0.0`
   * (gateway.ts).
   */
  jwksListenHost?: string;
  /** One line for the report: image, container, network mode and address. */
  describe: string;
  /** The base URL given to the container (CONFORMANCE_BASE_URL). */
  baseUrl: string;
  containerId: string;
  /** The image's ID (`sha256:…`, its config digest, as `docker inspect` gives it): the subject of `run --attest`. */
  imageId?: string;
  /** The file the container's log is streamed to. */
  logPath: string;
  /** Removes the container (unless keepContainer) and the temporary profile folder. Idempotent. */
  stop(): Promise<void>;
}

export async function startImageTarget(options: ImageTargetOptions): Promise<ImageTarget> {
  validateOptions(options);
  const client = await connectDocker();
  await requireLocalImage(client, options.image);
  const network = chooseNetworkMode(engineFacts(client), options.network ?? 'auto');
  const listenPort = options.port ?? (network.mode === 'host' ? await freeLoopbackPort() : 8080);
  const hostPort = network.mode === 'host' ? listenPort : await freeLoopbackPort();
  const baseUrl = `http://${network.reachableHost}:${hostPort}`;

  const folder = await profileFolder();
  const log = new ContainerLog(join(options.reportDir, 'container.log'));
  const environment = containerEnvironment(options, network.mode, baseUrl, listenPort);
  const started = await startContainer(options, containerDefinition(options, network.mode, { environment, folder, log, listenPort, hostPort }), {
    hostPort,
    networkMode: network.mode,
    folder,
    log,
  });
  const life = new ContainerLifecycle(client, started, folder, log, options);

  await awaitProfile(life, options, folder.profilePath, environment[ENV_PROFILE_OUT]!);
  await checkWrittenProfile(life, options, folder.profilePath);

  const jwksListenHost = network.mode === 'bridge' ? await bridgeJwksListenHost(client, started.container) : undefined;
  const inspected = await client.container.inspect(client.container.getById(life.containerId)).catch(() => undefined);
  const imageId = /^sha256:[0-9a-f]{64}$/.test(inspected?.Image ?? '') ? inspected?.Image : undefined;
  const where =
    network.mode === 'host' ? 'on the host network' : `behind mapped port ${hostPort} (bridge, ${network.reason}; JWKS served on ${jwksListenHost})`;
  return {
    profilePath: folder.profilePath,
    networkMode: network.mode,
    ...(jwksListenHost === undefined ? {} : { jwksListenHost }),
    describe: `image ${options.image}, container ${life.shortId}, ${where}`,
    baseUrl,
    containerId: life.containerId,
    ...(imageId === undefined ? {} : { imageId }),
    logPath: log.filePath,
    stop: () => life.release(),
  };
}

/**
 * The profile holds secrets: it lives in a private temporary folder, never in the report folder. The
 * mounted subfolder is world-writable so that an image running as any user can write into it.
 */
async function profileFolder(): Promise<ProfileFolder> {
  const privateDir = await mkdtemp(join(tmpdir(), 'access-conformance-image-'));
  const mountDir = join(privateDir, 'profile');
  await mkdir(mountDir);
  await chmod(mountDir, 0o777);
  return { privateDir, mountDir, profilePath: join(mountDir, PROFILE_FILE_NAME) };
}

function containerEnvironment(options: ImageTargetOptions, mode: NetworkMode, baseUrl: string, listenPort: number): Record<string, string> {
  return {
    ...options.env,
    [ENV_BASE_URL]: baseUrl,
    [ENV_PROFILE_OUT]: `${CONTAINER_PROFILE_DIR}/${PROFILE_FILE_NAME}`,
    [ENV_HOOKS]: options.hooks ? '1' : '0',
    [ENV_PORT]: String(listenPort),
    [ENV_HOST]: mode === 'host' ? '127.0.0.1' : '0.0.0.0',
    [ENV_HARNESS_HOST]: mode === 'host' ? '127.0.0.1' : HOST_GATEWAY_NAME,
    [ENV_NETWORK]: mode,
  };
}

interface DefinitionParts {
  environment: Record<string, string>;
  folder: ProfileFolder;
  log: ContainerLog;
  listenPort: number;
  hostPort: number;
}

function containerDefinition(options: ImageTargetOptions, mode: NetworkMode, parts: DefinitionParts): { name: string; definition: GenericContainer } {
  // A name of our own: if the engine creates the container but cannot start it, testcontainers does not
  // say which container that was, and it must still be removed.
  const name = `access-conformance-image-${randomBytes(4).toString('hex')}`;
  const definition = new GenericContainer(options.image)
    .withName(name)
    .withEnvironment(parts.environment)
    .withBindMounts([{ source: parts.folder.mountDir, target: CONTAINER_PROFILE_DIR, mode: 'rw' }])
    .withLabels({ [IMAGE_TARGET_LABEL]: IMAGE_TARGET_ROLE })
    .withPullPolicy(NO_PULL)
    .withWaitStrategy(NO_WAIT)
    .withLogConsumer((stream) => parts.log.attach(stream));
  return {
    name,
    definition:
      mode === 'host'
        ? definition.withNetworkMode('host')
        : definition
            .withExposedPorts({ container: parts.listenPort, host: parts.hostPort })
            .withExtraHosts([{ host: HOST_GATEWAY_NAME, ipAddress: 'host-gateway' }]),
  };
}

async function startContainer(
  options: ImageTargetOptions,
  { name, definition }: { name: string; definition: GenericContainer },
  context: { hostPort: number; networkMode: NetworkMode; folder: ProfileFolder; log: ContainerLog },
): Promise<{ container: StartedTestContainer }> {
  try {
    return { container: await definition.start() };
  } catch (error) {
    await removeContainer(name);
    context.log.close();
    await rm(context.folder.privateDir, { recursive: true, force: true }).catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError('IMAGE_START_FAILED', `the Docker engine could not start ${options.image}: ${reason}`, {
      field: '--image',
      hint: context.networkMode === 'bridge' ? `port ${context.hostPort} on the host may be taken; retry` : 'see the Docker engine log',
      cause: error,
    });
  }
}

/** Waits for the profile file, failing with the container's last log lines if it exits or stays silent. */
async function awaitProfile(life: ContainerLifecycle, options: ImageTargetOptions, profilePath: string, profileInContainer: string): Promise<void> {
  const waited = await waitForProfile({ path: profilePath, timeoutMs: options.startupTimeoutMs, checkExited: () => life.exitReason() });
  if (waited.kind === 'exited') {
    await life.fail('IMAGE_START_FAILED', `${options.image} stopped before writing its target profile: ${waited.detail}.`, 'the image must stay up and write its profile to $CONFORMANCE_PROFILE_OUT');
  }
  if (waited.kind === 'timeout') {
    await life.fail(
      'IMAGE_PROFILE_TIMEOUT',
      `${options.image} wrote no target profile to ${profileInContainer} within ${Math.round(options.startupTimeoutMs / 1000)} s.`,
      'the image must write its profile to $CONFORMANCE_PROFILE_OUT once it accepts requests; raise --image-startup-timeout if it is only slow',
    );
  }
  const exitedAfter = await life.exitReason();
  if (exitedAfter !== undefined) {
    await life.fail('IMAGE_START_FAILED', `${options.image} wrote its profile, then stopped: ${exitedAfter}.`, 'the image must keep serving after writing its profile');
  }
}

/** Validates the written profile (the engine loads it again) and teaches the log its secrets. */
async function checkWrittenProfile(life: ContainerLifecycle, options: ImageTargetOptions, profilePath: string): Promise<void> {
  try {
    const profile = await loadProfile(profilePath);
    life.log.redact(profile.secrets);
  } catch (error) {
    await life.release();
    if (!isHarnessError(error)) throw error;
    const tail = `${life.log.formatTail()}\n  (full log: ${life.log.filePath})`;
    throw new HarnessError(error.code, `the profile written by ${options.image} is not usable: ${error.message}\n${tail}`, {
      field: error.field,
      hint: error.hint,
      cause: error,
    });
  }
}

function validateOptions(options: ImageTargetOptions): void {
  for (const name of Object.keys(options.env)) {
    if (CONTRACT_ENV_NAMES.includes(name)) {
      throw new HarnessError('USAGE', `--image-env cannot set ${name}: the harness sets it (image contract)`, { field: '--image-env' });
    }
  }
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 1 || options.port > 65_535)) {
    throw new HarnessError('USAGE', `--image-port must be a TCP port (1-65535), got ${options.port}`, { field: '--image-port' });
  }
  if (!(options.startupTimeoutMs > 0)) {
    throw new HarnessError('USAGE', `--image-startup-timeout must be positive`, { field: '--image-startup-timeout' });
  }
}
