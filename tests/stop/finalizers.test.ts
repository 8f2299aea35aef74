/**
 * The process's finalizers (src/stop/finalizers.ts): the one list the run scope runs on every way out, a
 * started container's removal included (it used to keep its own list and its own signal handlers).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { registerFinalizer, runFinalizers } from '../../src/stop/finalizers.js';

describe('finalizers', () => {
  it('run once, last registered first, and not the removed ones; installing one adds no signal handler', async () => {
    const signals = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    const ran: string[] = [];
    registerFinalizer('first', async () => void ran.push('first'));
    const remove = registerFinalizer('removed', async () => void ran.push('removed'));
    registerFinalizer('last', async () => void ran.push('last'));
    remove();
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(signals);
    await Promise.all([runFinalizers(), runFinalizers()]);
    await runFinalizers();
    expect(ran).toEqual(['last', 'first']);
  });

  it('one that fails is named, and the next still runs', async () => {
    const ran: string[] = [];
    registerFinalizer('second', async () => void ran.push('second'));
    registerFinalizer('engine gone', async () => {
      throw new Error('engine gone');
    });
    await runFinalizers();
    expect(ran).toEqual(['second']);
  });

  it('a fallback runs at exit when its finalizer has not finished, and not when it has', () => {
    // The built module (npm run build:all): a child process of its own, so its exit is a real one.
    const module = new URL('../../dist/src/stop/finalizers.js', import.meta.url).href;
    const script = `
      const { registerFinalizer, runFinalizers } = await import(${JSON.stringify(module)});
      registerFinalizer('finished', async () => {}, () => process.stdout.write('finished-fallback\\n'));
      await runFinalizers();
      registerFinalizer('unfinished', () => new Promise(() => {}), () => process.stdout.write('unfinished-fallback\\n'));
      process.exit(0);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('unfinished-fallback\n');
  });
});
