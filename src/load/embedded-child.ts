/**
 * Child-process entry: the embedded reference for `load` without a profile, on its own process (and so its
 * own core), so the driver measures the reference instead of competing with it for one event loop.
 * Protocol over IPC: the child sends {type: 'ready', profilePath, baseUrl} or {type: 'error', message}; the
 * parent sends 'close' (or disconnects), and the child stops the sandbox and exits.
 */
import { startSandbox } from '../tenant/index.js';

// Ctrl-C (and a SIGTERM sent to the process group, as `timeout` or a container runtime may) reaches this
// process too: the parent decides when the reference stops, after its requests in flight finished and its
// report is written. The parent's 'close' message, or its IPC channel closing, stops it.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});

const seed = process.env.ACCESS_CONFORMANCE_LOAD_SEED || undefined;
startSandbox({ seed, hooks: false }).then(
  (sandbox) => {
    let closing = false;
    const stop = (): void => {
      if (closing) return;
      closing = true;
      void sandbox.close().finally(() => process.exit(0));
    };
    process.on('message', (message) => {
      if (message === 'close') stop();
    });
    process.on('disconnect', stop);
    process.send?.({ type: 'ready', profilePath: sandbox.profilePath, baseUrl: sandbox.baseUrl });
  },
  (error: unknown) => {
    process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);
