/**
 * Removes started containers when the process is interrupted. Ryuk (testcontainers' reaper) is off by
 * default because its image cannot be pulled without a registry, so this is what stops a Ctrl-C from leaving
 * containers behind.
 *
 * On SIGINT/SIGTERM every registered cleanup runs (bounded in time); then, if no other part of the process
 * listens for that signal, the signal is raised again so the process ends the way it would have without us.
 * When another listener exists (e.g. the run command's own handler), ending the process is its job.
 */

type Cleanup = () => Promise<void>;
/** Synchronous fallback for a cleanup that did not finish when the process exits. */
type ExitFallback = () => void;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type HandledSignal = (typeof SIGNALS)[number];

const cleanups = new Set<Cleanup>();
const fallbacks = new Map<Cleanup, ExitFallback>();
let installed = false;
let running: Promise<void> | undefined;
const CLEANUP_BUDGET_MS = 15_000;

/**
 * Registers a cleanup, and optionally a synchronous fallback run at process exit if the cleanup has not
 * finished by then. Returns a function that unregisters both (call it once the cleanup ran normally).
 */
export function registerCleanup(cleanup: Cleanup, onExit?: ExitFallback): () => void {
  cleanups.add(cleanup);
  if (onExit) fallbacks.set(cleanup, onExit);
  install();
  return () => {
    cleanups.delete(cleanup);
    fallbacks.delete(cleanup);
    if (cleanups.size === 0 && fallbacks.size === 0) uninstall();
  };
}

/** Runs every registered cleanup once, at most {@link CLEANUP_BUDGET_MS} in all. */
export function runCleanups(): Promise<void> {
  if (running) return running;
  const pending = [...cleanups];
  cleanups.clear();
  // Each fallback stays armed until its own cleanup has finished.
  const tracked = pending.map((cleanup) => cleanup().finally(() => fallbacks.delete(cleanup)));
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLEANUP_BUDGET_MS);
    timer.unref();
  });
  const all = Promise.allSettled(tracked).then(() => undefined);
  running = Promise.race([all, budget]).finally(() => {
    clearTimeout(timer);
    running = undefined;
    if (cleanups.size === 0 && fallbacks.size === 0) uninstall();
  });
  return running;
}

function onSignal(signal: HandledSignal): void {
  process.stderr.write(`access-conformance: ${signal}: removing the started container(s)...\n`);
  void runCleanups().then(() => {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

const handlers: Record<HandledSignal, () => void> = {
  SIGINT: () => onSignal('SIGINT'),
  SIGTERM: () => onSignal('SIGTERM'),
};

function onExit(): void {
  const pending = [...fallbacks.values()];
  fallbacks.clear();
  for (const fallback of pending) fallback();
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of SIGNALS) process.on(signal, handlers[signal]);
  process.on('exit', onExit);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  for (const signal of SIGNALS) process.off(signal, handlers[signal]);
  process.off('exit', onExit);
}
