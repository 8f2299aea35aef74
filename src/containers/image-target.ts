/**
 * `run --image`: start an implementation shipped as a container image, wait for the target profile it writes
 * (see docs/containers.md for the contract), and hand the profile's path to the engine.
 *
 * Failures before the profile is usable are harness errors (exit 2) that quote the container's last log
 * lines: IMAGE_START_FAILED (it could not start or exited), IMAGE_PROFILE_TIMEOUT (no profile in time),
 * PROFILE_INVALID and friends (loadProfile's codes). The container is removed in every case, unless kept.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
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
import { registerCleanup } from './cleanup.js';
import { ContainerLog } from './container-log.js';
import { bridgeJwksListenHost } from './gateway.js';
import { IMAGE_TARGET_LABEL, IMAGE_TARGET_ROLE, removeContainer } from './inventory.js';
import { waitForProfile } from './profile-wait.js';
import { dockerEndpoint, removeContainerSync } from './sync-remove.js';
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
  /** The file the container's log is streamed to. */
  logPath: string;
  /** Removes the container (unless keepContainer) and the temporary profile folder. Idempotent. */
  stop(): Promise<void>;
}

const STOP_TIMEOUT_S = 5;
const LOG_DRAIN_MS = 1_500;

export async function startImageTarget(options: ImageTargetOptions): Promise<ImageTarget> {
  validateOptions(options);
  const client = await connectDocker();
  await requireLocalImage(client, options.image);
  const network = chooseNetworkMode(engineFacts(client), options.network ?? 'auto');

  const listenPort = options.port ?? (network.mode === 'host' ? await freeLoopbackPort() : 8080);
  const hostPort = network.mode === 'host' ? listenPort : await freeLoopbackPort();
  const baseUrl = `http://${network.reachableHost}:${hostPort}`;

  // The profile holds secrets: it lives in a private temporary folder, never in the report folder. The
  // mounted subfolder is world-writable so that an image running as any user can write into it.
  const privateDir = await mkdtemp(join(tmpdir(), 'access-conformance-image-'));
  const mountDir = join(privateDir, 'profile');
  await mkdir(mountDir);
  await chmod(mountDir, 0o777);
  const profilePath = join(mountDir, PROFILE_FILE_NAME);

  const log = new ContainerLog(join(options.reportDir, 'container.log'));
  const environment: Record<string, string> = {
    ...options.env,
    [ENV_BASE_URL]: baseUrl,
    [ENV_PROFILE_OUT]: `${CONTAINER_PROFILE_DIR}/${PROFILE_FILE_NAME}`,
    [ENV_HOOKS]: options.hooks ? '1' : '0',
    [ENV_PORT]: String(listenPort),
    [ENV_HOST]: network.mode === 'host' ? '127.0.0.1' : '0.0.0.0',
    [ENV_HARNESS_HOST]: network.mode === 'host' ? '127.0.0.1' : HOST_GATEWAY_NAME,
    [ENV_NETWORK]: network.mode,
  };

  // A name of our own: if the engine creates the container but cannot start it, testcontainers does not
  // say which container that was, and it must still be removed.
  const name = `access-conformance-image-${randomBytes(4).toString('hex')}`;
  let definition = new GenericContainer(options.image)
    .withName(name)
    .withEnvironment(environment)
    .withBindMounts([{ source: mountDir, target: CONTAINER_PROFILE_DIR, mode: 'rw' }])
    .withLabels({ [IMAGE_TARGET_LABEL]: IMAGE_TARGET_ROLE })
    .withPullPolicy(NO_PULL)
    .withWaitStrategy(NO_WAIT)
    .withLogConsumer((stream) => log.attach(stream));
  definition =
    network.mode === 'host'
      ? definition.withNetworkMode('host')
      : definition
          .withExposedPorts({ container: listenPort, host: hostPort })
          .withExtraHosts([{ host: HOST_GATEWAY_NAME, ipAddress: 'host-gateway' }]);

  let removeTempDir = true;
  const discardTempDir = async (): Promise<void> => {
    if (removeTempDir) await rm(privateDir, { recursive: true, force: true }).catch(() => undefined);
  };

  let container: StartedTestContainer;
  try {
    container = await definition.start();
  } catch (error) {
    await removeContainer(name);
    log.close();
    await discardTempDir();
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError('IMAGE_START_FAILED', `the Docker engine could not start ${options.image}: ${reason}`, {
      field: '--image',
      hint: network.mode === 'bridge' ? `port ${hostPort} on the host may be taken; retry` : 'see the Docker engine log',
      cause: error,
    });
  }
  const containerId = container.getId();
  const shortId = containerId.slice(0, 12);

  let stopped: Promise<void> | undefined;
  // If the process ends before remove() finished (another SIGINT listener may exit at once), the exit
  // fallback deletes the container synchronously; a kept container is left alone.
  const endpoint = dockerEndpoint(client);
  const exitFallback =
    options.keepContainer || endpoint === undefined
      ? undefined
      : () => {
          removeContainerSync(endpoint, containerId);
          rmSync(privateDir, { recursive: true, force: true });
        };
  const unregister = registerCleanup(() => (options.keepContainer ? keep() : remove()), exitFallback);
  function remove(): Promise<void> {
    stopped ??= (async () => {
      await container.stop({ timeout: STOP_TIMEOUT_S, remove: true, removeVolumes: true }).catch(() => undefined);
      await log.ended(LOG_DRAIN_MS);
      log.close();
      await discardTempDir();
    })();
    return stopped;
  }

  let kept = false;
  async function keep(): Promise<void> {
    if (kept || stopped) return;
    kept = true;
    removeTempDir = false;
    await log.ended(300);
    log.close();
    process.stderr.write(
      `access-conformance: kept container ${shortId} (${options.image}); its log is ${log.filePath}, its profile folder ${mountDir}.\n` +
        `  remove them with: docker rm -f ${shortId} && rm -rf ${privateDir}\n`,
    );
  }

  const checkExited = async (): Promise<string | undefined> => {
    const inspect = await client.container.inspect(client.container.getById(containerId)).catch(() => undefined);
    if (inspect === undefined) return 'it disappeared (removed by someone else?)';
    if (inspect.State.Running) return undefined;
    const oom = inspect.State.OOMKilled ? ', killed for lack of memory' : '';
    return `it exited with code ${inspect.State.ExitCode}${oom}`;
  };

  // Honours --keep-container (a failed container is what one wants to inspect), else removes.
  const release = async (): Promise<void> => {
    if (options.keepContainer) await keep();
    else await remove();
    unregister();
  };
  const fail = async (code: 'IMAGE_START_FAILED' | 'IMAGE_PROFILE_TIMEOUT', message: string, hint: string): Promise<never> => {
    // Let the last lines arrive before quoting them: the log stream ends once the container is gone.
    await release();
    throw new HarnessError(code, `${message}\n${log.formatTail()}`, { field: '--image', hint: `${hint}; full log: ${log.filePath}` });
  };
  const waited = await waitForProfile({ path: profilePath, timeoutMs: options.startupTimeoutMs, checkExited });
  if (waited.kind === 'exited') {
    await fail('IMAGE_START_FAILED', `${options.image} stopped before writing its target profile: ${waited.detail}.`, 'the image must stay up and write its profile to $CONFORMANCE_PROFILE_OUT');
  }
  if (waited.kind === 'timeout') {
    await fail(
      'IMAGE_PROFILE_TIMEOUT',
      `${options.image} wrote no target profile to ${environment[ENV_PROFILE_OUT]} within ${Math.round(options.startupTimeoutMs / 1000)} s.`,
      'the image must write its profile to $CONFORMANCE_PROFILE_OUT once it accepts requests; raise --image-startup-timeout if it is only slow',
    );
  }
  const exitedAfter = await checkExited();
  if (exitedAfter !== undefined) {
    await fail('IMAGE_START_FAILED', `${options.image} wrote its profile, then stopped: ${exitedAfter}.`, 'the image must keep serving after writing its profile');
  }

  try {
    const profile = await loadProfile(profilePath);
    log.redact(profile.secrets);
  } catch (error) {
    await release();
    if (!isHarnessError(error)) throw error;
    const tail = `${log.formatTail()}\n  (full log: ${log.filePath})`;
    throw new HarnessError(error.code, `the profile written by ${options.image} is not usable: ${error.message}\n${tail}`, {
      field: error.field,
      hint: error.hint,
      cause: error,
    });
  }

  const jwksListenHost = network.mode === 'bridge' ? await bridgeJwksListenHost(client, container) : undefined;
  const where =
    network.mode === 'host' ? 'on the host network' : `behind mapped port ${hostPort} (bridge, ${network.reason}; JWKS served on ${jwksListenHost})`;
  return {
    profilePath,
    networkMode: network.mode,
    ...(jwksListenHost === undefined ? {} : { jwksListenHost }),
    describe: `image ${options.image}, container ${shortId}, ${where}`,
    baseUrl,
    containerId,
    logPath: log.filePath,
    stop: release,
  };
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
