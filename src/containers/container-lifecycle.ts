/**
 * The life of one started image target: removal (or keeping it, with --keep-container), a synchronous
 * removal if the process exits first, and failing with the container's last log lines. Every path that
 * gives up on a container goes through here, so no path forgets the container or its profile folder.
 */
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { ContainerRuntimeClient, StartedTestContainer } from 'testcontainers';
import { HarnessError } from '../errors.js';
import { registerFinalizer } from '../stop/finalizers.js';
import { stopMs } from '../stop/timings.js';
import type { ContainerLog } from './container-log.js';
import { dockerEndpoint, removeContainerSync } from './sync-remove.js';

/** The private folder holding the mounted profile folder. */
export interface ProfileFolder {
  privateDir: string;
  mountDir: string;
  profilePath: string;
}

export class ContainerLifecycle {
  readonly containerId: string;
  readonly shortId: string;
  private stopped: Promise<void> | undefined;
  private kept = false;
  private removeFolder = true;
  private readonly unregister: () => void;

  constructor(
    private readonly client: ContainerRuntimeClient,
    private readonly started: { container: StartedTestContainer },
    private readonly folder: ProfileFolder,
    readonly log: ContainerLog,
    private readonly options: { image: string; keepContainer: boolean },
  ) {
    this.containerId = started.container.getId();
    this.shortId = this.containerId.slice(0, 12);
    // Removed on every way out of the command by the stop room's finalizers (a signal, a forced stop, an
    // error); if the process ends before remove() finished (a forced exit does not wait), the exit fallback
    // deletes the container synchronously; a kept container is left alone.
    const endpoint = dockerEndpoint(client);
    const exitFallback =
      options.keepContainer || endpoint === undefined
        ? undefined
        : () => {
            removeContainerSync(endpoint, this.containerId);
            rmSync(folder.privateDir, { recursive: true, force: true });
          };
    this.unregister = registerFinalizer(
      `remove container ${this.shortId}`,
      (stoppedBy) => {
        // Said on a signal: the user pressed Ctrl-C and waits; this is what the command still does.
        if (stoppedBy !== undefined && !options.keepContainer) process.stderr.write(`access-conformance: ${stoppedBy}: removing the started container ${this.shortId}...\n`);
        return options.keepContainer ? this.keep() : this.remove();
      },
      exitFallback,
    );
  }

  /** Why the container is no longer running, or undefined while it runs. */
  async exitReason(): Promise<string | undefined> {
    const inspect = await this.client.container.inspect(this.client.container.getById(this.containerId)).catch(() => undefined);
    if (inspect === undefined) return 'it disappeared (removed by someone else?)';
    if (inspect.State.Running) return undefined;
    const oom = inspect.State.OOMKilled ? ', killed for lack of memory' : '';
    return `it exited with code ${inspect.State.ExitCode}${oom}`;
  }

  /** Honours --keep-container (a failed container is what one wants to inspect), else removes. */
  async release(): Promise<void> {
    if (this.options.keepContainer) await this.keep();
    else await this.remove();
    this.unregister();
  }

  async fail(code: 'IMAGE_START_FAILED' | 'IMAGE_PROFILE_TIMEOUT', message: string, hint: string): Promise<never> {
    // Let the last lines arrive before quoting them: the log stream ends once the container is gone.
    await this.release();
    throw new HarnessError(code, `${message}\n${this.log.formatTail()}`, { field: '--image', hint: `${hint}; full log: ${this.log.filePath}` });
  }

  private remove(): Promise<void> {
    this.stopped ??= (async () => {
      await this.started.container.stop({ timeout: stopMs('containerStop') / 1000, remove: true, removeVolumes: true }).catch(() => undefined);
      await this.log.ended(stopMs('containerLogDrain'));
      this.log.close();
      if (this.removeFolder) await rm(this.folder.privateDir, { recursive: true, force: true }).catch(() => undefined);
    })();
    return this.stopped;
  }

  private async keep(): Promise<void> {
    if (this.kept || this.stopped) return;
    this.kept = true;
    this.removeFolder = false;
    await this.log.ended(stopMs('keptContainerLog'));
    this.log.close();
    process.stderr.write(
      `access-conformance: kept container ${this.shortId} (${this.options.image}); its log is ${this.log.filePath}, its profile folder ${this.folder.mountDir}.\n` +
        `  remove them with: docker rm -f ${this.shortId} && rm -rf ${this.folder.privateDir}\n`,
    );
  }
}
