/**
 * `node dist/bench/one-check-runs.js [N] [--concurrency C]`: N one-check embedded runs
 * (`run --only CRED-01 --seed one-check-<i>`, each in its own --out), C at a time (default 1), each bounded
 * at RUN_LIMIT_MS. Counts exit codes and hangs (a run killed at its bound), and prints the wall times. Issue 30
 * asked for several hundred such runs without a hang: Node 20's key-export deadlock hung about one in a few
 * hundred of them. Exit 1 when any run hung or did not exit 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './registry.js';

const BIN = fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));
/** A one-check run takes seconds; one that takes this long is stuck. */
const RUN_LIMIT_MS = 120_000;

const args = process.argv.slice(2);
const count = Math.max(1, Number(args.find((arg) => /^\d+$/.test(arg)) ?? 100));
const concurrencyAt = args.indexOf('--concurrency');
const concurrency = concurrencyAt >= 0 ? Math.max(1, Number(args[concurrencyAt + 1])) : 1;

interface Outcome {
  code: number | null;
  wallMs: number;
  hung: boolean;
  tail: string;
}

function oneRun(i: number, dir: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'run', '--only', 'CRED-01', '--seed', `one-check-${i}`, '--reporter', 'json', '--out', join(dir, `run-${i}`)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-1500);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, RUN_LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, wallMs: Math.round(performance.now() - started), hung, tail });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'ac-one-check-'));
const outcomes: Outcome[] = [];
const loadBefore = loadavg()[0]!;
let next = 0;
async function worker(): Promise<void> {
  while (next < count) {
    const i = next;
    next += 1;
    const outcome = await oneRun(i, dir);
    outcomes.push(outcome);
    rmSync(join(dir, `run-${i}`), { recursive: true, force: true });
    if (outcome.hung || outcome.code !== 0) process.stderr.write(`run ${i}: ${outcome.hung ? 'HUNG (killed)' : `exit ${outcome.code}`}\n${outcome.tail}\n`);
    if (outcomes.length % 25 === 0) process.stdout.write(`${outcomes.length} of ${count} runs\n`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
rmSync(dir, { recursive: true, force: true });

const walls = outcomes.map((outcome) => outcome.wallMs);
const codes = new Map<string, number>();
for (const outcome of outcomes) {
  const key = outcome.hung ? 'hung' : `exit ${outcome.code}`;
  codes.set(key, (codes.get(key) ?? 0) + 1);
}
process.stdout.write(
  `${count} one-check embedded runs (run --only CRED-01), ${concurrency} at a time, each bounded at ${RUN_LIMIT_MS / 1000} s\n` +
    `  outcomes: ${[...codes].map(([key, n]) => `${key}: ${n}`).join(', ')}\n` +
    `  wall: median ${median(walls)} ms, min ${Math.min(...walls)} ms, max ${Math.max(...walls)} ms\n` +
    `  machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}, load ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after\n`,
);
process.exitCode = outcomes.every((outcome) => !outcome.hung && outcome.code === 0) ? 0 : 1;
