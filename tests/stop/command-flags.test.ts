/**
 * The V8 flags a command's child runs with (supervised-child.ts COMMAND_V8_FLAGS): the forked child of
 * `load` has them on top of its parent's own, the other commands' children only their parent's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_V8_FLAGS, forkSupervisedChild } from '../../src/stop/supervised-child.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-command-flags-'));
// A stand-in entry: tells its execArgv, and whether V8 took the flag (an unknown one stops node at start).
const entry = join(dir, 'entry.mjs');
writeFileSync(entry, "process.send({ execArgv: process.execArgv }, () => process.exit(0));\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function execArgvOf(command: string): Promise<string[]> {
  const forked = forkSupervisedChild(entry, [command], { ...process.env });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the child said nothing within 10 s')), 10_000);
    forked.listen({
      message: (message) => {
        clearTimeout(timer);
        resolve((message as unknown as { execArgv: string[] }).execArgv);
      },
      exit: (end) => {
        if (end.code !== 0) reject(new Error(`the child exited with ${end.code ?? end.signal}`));
      },
      close: () => {},
    });
  });
}

describe('a command child\'s V8 flags', () => {
  it('load runs without the memory reducer, on top of the parent\'s own flags', async () => {
    expect(COMMAND_V8_FLAGS.load).toEqual(['--no-memory-reducer']);
    const flags = await execArgvOf('load');
    expect(flags).toEqual([...process.execArgv, '--no-memory-reducer']);
  });

  it('run and serve keep the parent\'s flags only', async () => {
    expect(await execArgvOf('run')).toEqual(process.execArgv);
    expect(await execArgvOf('serve')).toEqual(process.execArgv);
  });
});
