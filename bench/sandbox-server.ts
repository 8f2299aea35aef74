/**
 * Child process of the sandbox-diagnoses bench: one sandbox holding both handlers, the reference as it is
 * (`plain`) and the reference with the wrappers `serve` puts around it (`wrapped`: observeHandler(
 * diagnosingHandler(reference)) with the console-line observer, its lines dropped). The parent picks
 * which one answers ({ mode }), so both sides run in the same process (no bias of one process over
 * another on a shared machine). Sends {baseUrl, profilePath} over IPC, answers 'cpu' with its
 * process.cpuUsage(), stops when the parent disconnects.
 */
import { mkdirSync } from 'node:fs';
import type { ReferenceHandler } from '../src/reference/types.js';
import { consoleLines } from '../src/sandbox/console-lines.js';
import { sandboxCustomize } from '../src/sandbox/customize.js';
import { startSandbox } from '../src/tenant/sandbox.js';

const [dir] = process.argv.slice(2) as [string];
mkdirSync(dir, { recursive: true });
const lines = consoleLines({ mode: 'refused', write: () => {} });
const wrappers = sandboxCustomize(undefined, { observers: () => [lines.observe] });
const handlers: Record<string, ReferenceHandler> = {};
let active: ReferenceHandler | undefined;
const sandbox = await startSandbox({
  seed: 'bench',
  hooks: false,
  profileDir: dir,
  logger: () => {},
  customize: {
    ...wrappers,
    wrapHandler: (handler, tenant) => {
      handlers.plain = handler;
      handlers.wrapped = wrappers.wrapHandler!(handler, tenant);
      active = handlers.plain;
      return (request) => active!(request);
    },
  },
});
process.send?.({ baseUrl: sandbox.baseUrl, profilePath: sandbox.profilePath, pid: process.pid });
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  const mode = (message as { mode?: string }).mode;
  if (mode !== undefined && handlers[mode] !== undefined) {
    active = handlers[mode];
    process.send?.({ mode });
  }
});
const stop = async (): Promise<void> => {
  await sandbox.close();
  process.exit(0);
};
process.on('disconnect', () => void stop());
process.on('SIGTERM', () => void stop());
