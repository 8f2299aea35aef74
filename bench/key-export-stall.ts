/**
 * Key export under a watchdog: BENCH_KEY_PROCESSES child processes (default 6) each make and export
 * BENCH_KEY_COUNT keys (default 50,000) the way the project does (bench/key-export-child.ts). A child that
 * prints no progress for STALL_MS is stalled: it is killed and the bench fails, naming how far it got.
 * Node 20's synchronous key generation followed by a JWK export deadlocked 5 of 5 such processes within
 * 12,000 keys (src/crypto/ed25519.ts); `BENCH_KEY_WAY=sync-job` runs that former way, to see the watchdog
 * catch it. Bounded: each child is killed after CHILD_LIMIT_MS whatever it does.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchReport } from './registry.js';

const CHILD = fileURLToPath(new URL('./key-export-child.js', import.meta.url));
const PROCESSES = Math.max(1, Number(process.env.BENCH_KEY_PROCESSES ?? 6));
const COUNT = Math.max(1000, Number(process.env.BENCH_KEY_COUNT ?? 50_000));
const WAY = process.env.BENCH_KEY_WAY ?? 'project';
/** No progress line (1,000 keys) for this long is a stall: a slow machine makes 1,000 keys in well under 1 s. */
const STALL_MS = 20_000;
const CHILD_LIMIT_MS = 180_000;

interface ChildOutcome {
  keys: number;
  wallMs: number;
  stalled: boolean;
}

function runChild(): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CHILD, String(COUNT), WAY], { stdio: ['ignore', 'pipe', 'pipe'] });
    let keys = 0;
    let done = false;
    let stalled = false;
    let errors = '';
    let watchdog = setTimeout(stall, STALL_MS);
    const limit = setTimeout(stall, CHILD_LIMIT_MS);
    function stall(): void {
      stalled = true;
      child.kill('SIGKILL');
    }
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === 'done') done = true;
        else if (/^\d+$/.test(line)) keys = Number(line);
      }
      clearTimeout(watchdog);
      watchdog = setTimeout(stall, STALL_MS);
    });
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(watchdog);
      clearTimeout(limit);
      const wallMs = Math.round(performance.now() - started);
      if (!stalled && (code !== 0 || !done)) reject(new Error(`key child exited with ${code} after ${keys} keys: ${errors}`));
      else resolve({ keys, wallMs, stalled });
    });
  });
}

export const keyExportBench: Bench = {
  name: 'key-export',
  description: `${PROCESSES} processes × ${COUNT} keys made and exported (${WAY}), each under a ${STALL_MS / 1000} s stall watchdog`,
  async run(): Promise<BenchReport> {
    const loadBefore = loadavg()[0]!;
    // Two at a time: the machine has few cores and the point is many keys, not parallel speed.
    const outcomes: ChildOutcome[] = [];
    for (let i = 0; i < PROCESSES; i += 2) {
      outcomes.push(...(await Promise.all(Array.from({ length: Math.min(2, PROCESSES - i) }, runChild))));
    }
    const stalled = outcomes.filter((outcome) => outcome.stalled);
    const keys = outcomes.reduce((sum, outcome) => sum + outcome.keys, 0);
    const report: BenchReport = {
      name: 'key-export',
      metrics: [
        { label: 'keys made and exported', value: keys, unit: 'keys' },
        { label: 'processes stalled', value: stalled.length, unit: `of ${outcomes.length}` },
        { label: 'slowest process', value: Math.max(...outcomes.map((outcome) => outcome.wallMs)), unit: 'ms' },
      ],
      notes: [
        `Way: ${WAY}; ${COUNT} keys per process; a process silent for ${STALL_MS / 1000} s is killed and counts as stalled.`,
        `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before.`,
      ],
    };
    if (stalled.length > 0) {
      const where = stalled.map((outcome) => `after ${outcome.keys} keys`).join(', ');
      throw new Error(`${stalled.length} of ${outcomes.length} key processes stalled (${where}): ${JSON.stringify(report.metrics)}`);
    }
    return report;
  },
};
