// The command table imports a command's module only when the command line names it: --version and
// --help must not load the engine, vitest, faker's locales or the reference (they took 1.4–2.2 s).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandName, isLoaded, lazyCommand, resolveCommands } from '../../src/cli/command-table.js';
import { defineCommand } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/main.js';
import { skipUnless } from '../support/capabilities.js';

const CLI = resolve('bin/access-conformance.js');

/** Registered with --import: any import of a command module or of a heavy library fails the process. */
const FORBID_HEAVY = `
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/\\/cli\\/commands\\/|@faker-js|\\/vitest\\/|\\/undici\\/|\\/jose\\/|testcontainers/.test(resolved.url)) {
    throw new Error('heavy module loaded: ' + resolved.url);
  }
  return resolved;
}`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(FORBID_HEAVY)}`)});`;

function cliForbiddingHeavy(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_')));
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, CLI, ...args], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the command table', () => {
  it("lists each command with its module's own command string and description", async () => {
    for (const entry of COMMANDS) {
      const loaded = isLoaded(entry) ? entry : await entry.load();
      expect({ command: entry.command, describe: entry.describe }).toEqual({ command: loaded.command, describe: loaded.describe });
    }
  });

  it('imports only the commands argv names, or all of them when asked', async () => {
    let loads = 0;
    const make = (command: string) =>
      lazyCommand(command, command, async () => {
        loads += 1;
        return defineCommand({ command, describe: command, options: {}, run: async () => 0 });
      });
    const table = [make('run'), make('diff <a> <b>'), make('list')];
    const forRun = await resolveCommands(table, ['--seed', 's', 'run', '--only', 'X'], false);
    expect(forRun.filter(isLoaded).map(commandName)).toEqual(['run']);
    expect(await resolveCommands(table, ['--version'], false)).toEqual(table);
    expect((await resolveCommands(table, ['list'], true)).every(isLoaded)).toBe(true);
    expect(loads).toBe(4);
  });

  describe('the built CLI', () => {
    const built = existsSync(resolve('dist/src/cli/main.js'));

    it('--version loads no command module and no heavy library', (ctx) => {
      skipUnless(ctx, 'dist', built, 'dist/ is missing: run `npm run build` first');
      const result = cliForbiddingHeavy(['--version']);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('--help lists every command without loading one', (ctx) => {
      skipUnless(ctx, 'dist', built, 'dist/ is missing: run `npm run build` first');
      const result = cliForbiddingHeavy(['--help']);
      expect(result.status, result.stderr).toBe(0);
      for (const entry of COMMANDS) expect(result.stdout).toContain(`access-conformance ${entry.command}`);
    });

    it('the guard itself trips: a command that runs loads its module', (ctx) => {
      skipUnless(ctx, 'dist', built, 'dist/ is missing: run `npm run build` first');
      const result = cliForbiddingHeavy(['list']);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('heavy module loaded');
    });
  });
});
