/**
 * Child process of the sandbox-diagnoses bench: a sandbox as `serve` starts it, with the wrappers around
 * the reference (`wrapped`: observeHandler(diagnosingHandler(reference)) with the console-line observer,
 * its lines dropped) or without them (`plain`). Sends {baseUrl, profilePath} over IPC, answers 'cpu' with
 * its process.cpuUsage(), stops when the parent disconnects.
 */
import { mkdirSync } from 'node:fs';
import { consoleLines } from '../src/sandbox/console-lines.js';
import { sandboxCustomize } from '../src/sandbox/customize.js';
import { startSandbox } from '../src/tenant/sandbox.js';

const [dir, mode] = process.argv.slice(2) as [string, string];
mkdirSync(dir, { recursive: true });
const lines = consoleLines({ mode: 'refused', write: () => {} });
const customize = mode === 'wrapped' ? sandboxCustomize(undefined, { observers: () => [lines.observe] }) : undefined;
const sandbox = await startSandbox({ seed: 'bench', hooks: false, profileDir: dir, logger: () => {}, customize });
process.send?.({ baseUrl: sandbox.baseUrl, profilePath: sandbox.profilePath, pid: process.pid });
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
const stop = async (): Promise<void> => {
  await sandbox.close();
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
