/**
 * The native minimal server (minimal-native.c): compiled here with the machine's C compiler (`CC`, else
 * `cc`) into a temporary directory, and started as a child process. The C file says why it exists; this
 * file only builds it, starts it and stops it, every wait bounded.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The C source: next to the compiled bench in dist/bench is no copy, so it is read from the checkout. */
const SOURCE = fileURLToPath(new URL(import.meta.url.includes('/dist/bench/') ? '../../bench/minimal-native.c' : './minimal-native.c', import.meta.url));
const COMPILE_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 10_000;

export interface NativeBuild {
  binary: string;
  /** Removes the temporary directory the binary is in. */
  remove(): void;
}

/**
 * Compiles minimal-native.c; the reason it could not (no compiler, a compile error) as a string, so that a
 * caller says it in its own words.
 */
export function buildNativeMinimal(): NativeBuild | string {
  const compiler = process.env.CC || 'cc';
  const dir = mkdtempSync(join(tmpdir(), 'ac-minimal-native-'));
  const binary = join(dir, 'minimal-native');
  const result = spawnSync(compiler, ['-O2', '-o', binary, SOURCE], { encoding: 'utf8', timeout: COMPILE_TIMEOUT_MS });
  if (result.status === 0) return { binary, remove: () => rmSync(dir, { recursive: true, force: true }) };
  rmSync(dir, { recursive: true, force: true });
  if (result.error) return `${compiler}: ${result.error.message}`;
  return `${compiler} -O2 ${SOURCE} failed (${result.status ?? result.signal}): ${result.stderr.trim().slice(0, 500)}`;
}

export interface NativeServer {
  port: number;
  pid: number;
  /** Closes its standard input (it exits at once), then kills it if it has not within 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts a built server; resolves once it printed its port. `delayMs`: each read's answers are written that
 * long after it (a timerfd: to the µs, not to the next whole millisecond as the node:net server's timers).
 */
export function startNativeMinimal(binary: string, options: { delayMs?: number } = {}): Promise<NativeServer> {
  const child: ChildProcess = spawn(binary, options.delayMs === undefined ? [] : [String(options.delayMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin!.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${binary}: ${why}`));
    };
    const timer = setTimeout(() => fail(`no port within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(error.message));
    const early = (code: number | null, signal: string | null): void => fail(`exited (${code ?? signal}) before it printed its port`);
    child.once('exit', early);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('latin1');
      if (!out.includes('\n')) return;
      const port = Number(out.trim());
      if (!Number.isInteger(port) || port <= 0 || port > 65535) return fail(`printed ${JSON.stringify(out.slice(0, 40))}, not a port`);
      clearTimeout(timer);
      child.off('exit', early);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ port, pid: child.pid!, stop });
    });
  });
}
