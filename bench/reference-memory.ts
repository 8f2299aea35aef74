/**
 * Child process of the reference-memory bench, run with --expose-gc: the same sandbox `serve` runs (hooks
 * off), in its own process so the load generator's allocations are not counted. Sends {baseUrl,
 * profilePath} over IPC, then answers each 'measure' message with heapUsed and rss after forced full
 * collections (several, so that weak and finalised objects are gone too). Stops when the parent disconnects.
 */
import { startSandbox } from '../src/tenant/sandbox.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const sandbox = await startSandbox({ seed: 'bench-memory', hooks: false, profileDir: process.argv[2], logger: () => {} });
process.send?.({ baseUrl: sandbox.baseUrl, profilePath: sandbox.profilePath });

process.on('message', async (message) => {
  if (message !== 'measure') return;
  // Let in-flight sockets close and timers run before collecting.
  await new Promise((resolve) => setTimeout(resolve, 300));
  for (let i = 0; i < 6; i += 1) gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.send?.({ heapUsed, rss });
});
const stop = async (): Promise<void> => {
  await sandbox.close();
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
