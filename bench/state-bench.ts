/**
 * `serve --state-dir` against `serve` in memory (method and figures in BENCHMARKS.md, "serve --state-dir"):
 * 1. Throughput: the CLI's `serve`, started fresh for each run, in memory and with --state-dir alternately
 *    (3 runs each, medians), driven by the same autocannon settings as the reference bench: unique pre-signed
 *    HMAC webhooks over CONNECTIONS keep-alive connections to 127.0.0.1, every answer must be 200.
 * 2. A million records: the store is filled through its own API (openStateDir → eventStore.claim, the code
 *    serve runs, without HTTP: a million webhooks through HTTP would take most of the bench), for the
 *    tenant of a serve started on that DIR before; then bytes on disk per record, and `serve --state-dir`
 *    started on it again: restart time (spawn → first webhook answered), RSS (the process tree's) after a lookup load (a sample
 *    of the filled IDs must answer 409, new ones 200), against the same measured on an empty DIR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { openStateDir } from '../src/state/index.js';
import { presign } from './reference-bench.js';
import { median, type Bench, type BenchReport } from './registry.js';

const BIN = fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30_000);
const CONNECTIONS = Number(process.env.BENCH_STATE_CONNECTIONS ?? 64);
const RECORDS = Number(process.env.BENCH_STATE_RECORDS ?? 1_000_000);
const RUNS = 3;

interface Serve {
  child: ChildProcess;
  baseUrl: string;
  path: string;
  secret: string;
  listenerId: string;
  /** ms from spawn to the profile written and the cheat-sheet printed. */
  startedMs: number;
  stop(): Promise<void>;
}

async function startServe(out: string, stateDir?: string): Promise<Serve> {
  const profilePath = join(out, 'sandbox.target.json');
  rmSync(profilePath, { force: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--out', out, ...(stateDir ? ['--state-dir', stateDir] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const deadline = Date.now() + 120_000;
  while (!output.includes('Press Ctrl-C') || !existsSync(profilePath)) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) throw new Error(`serve did not start in 120 s: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startedMs = performance.now() - t0;
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as { baseUrl: string; webhooks: { hmac: { listenerId: string; secret: string } } };
  const { listenerId, secret } = profile.webhooks.hmac;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    baseUrl: profile.baseUrl,
    listenerId,
    secret,
    path: `/api/v1/webhooks/incoming/${listenerId}`,
    startedMs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function drive(serve: Serve, requests: AutocannonRequest[], expected: Record<string, number>): Promise<{ rps: number; p50: number; p99: number }> {
  let next = 0;
  const result = await autocannon({
    url: serve.baseUrl,
    connections: Math.min(CONNECTIONS, requests.length),
    amount: requests.length,
    timeout: 10,
    requests: [{ setupRequest: () => requests[next++] ?? requests[requests.length - 1] }],
  });
  for (const [status, count] of Object.entries(expected)) {
    const got = Number(result.statusCodeStats[status as '200']?.count ?? 0);
    if (got !== count) throw new Error(`expected ${count} answers ${status}, got ${got} (of ${result.requests.total}: ${JSON.stringify(result.statusCodeStats)})`);
  }
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}

/** One throughput run on a fresh serve: a warm-up, then REQUESTS unique webhooks. */
async function throughput(root: string, durable: boolean, run: number): Promise<{ rps: number; p50: number; p99: number }> {
  const out = join(root, `tp-${durable ? 'state' : 'memory'}-${run}`);
  const serve = await startServe(out, durable ? join(out, 'state') : undefined);
  try {
    await drive(serve, presign(serve.secret, serve.path, 3000), { 200: 3000 });
    const result = await drive(serve, presign(serve.secret, serve.path, REQUESTS), { 200: REQUESTS });
    process.stderr.write(`  (run ${run + 1}, ${durable ? '--state-dir' : 'in memory'}: ${Math.round(result.rps)}/s, p99 ${result.p99} ms)\n`);
    return result;
  } finally {
    await serve.stop();
  }
}

function vmRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:')) ?? 'VmRSS: 0 kB';
  return Number(/(\d+)/.exec(line)?.[1] ?? 0) * 1024;
}

/**
 * RSS of serve's whole process tree: the CLI's supervisor and the child that serves (src/cli/supervisor.ts).
 * The supervisor alone (what this bench read before 2026-11-27) holds none of the records.
 */
function treeRss(pid: number): number {
  let children: number[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    // gone
  }
  return vmRss(pid) + children.reduce((sum, child) => sum + treeRss(child), 0);
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((sum, name) => {
    const stat = statSync(join(dir, name));
    return stat.isFile() ? sum + stat.size : sum;
  }, 0);
}

/** Fills the state DIR through the store's API with `count` unique records of `listenerId`; returns a sample of their IDs. */
async function fill(stateDir: string, listenerId: string, count: number): Promise<{ sample: string[]; perSecond: number }> {
  const state = await openStateDir(stateDir);
  const sample: string[] = [];
  const t0 = performance.now();
  try {
    const inFlight = 4096;
    let issued = 0;
    const worker = async (): Promise<void> => {
      while (issued < count) {
        issued += 1;
        const eventId = randomUUID();
        if (sample.length < 10_000 && issued % 97 === 0) sample.push(eventId);
        if (!(await state.deps.eventStore.claim(listenerId, eventId, state.deps.clock.now()))) throw new Error('a fresh ID was a duplicate');
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    await state.idle();
  } finally {
    await state.close();
  }
  return { sample, perSecond: count / ((performance.now() - t0) / 1000) };
}

/** Restart on `stateDir`: time to the first webhook answered, then RSS after lookups of kept IDs and new ones. */
async function restart(out: string, stateDir: string, kept: string[]): Promise<{ firstAnswerMs: number; startedMs: number; rss: number }> {
  const t0 = performance.now();
  const serve = await startServe(out, stateDir);
  try {
    const [first] = presign(serve.secret, serve.path, 1);
    await drive(serve, [first!], { 200: 1 });
    const firstAnswerMs = performance.now() - t0;
    if (kept.length > 0) await drive(serve, presign(serve.secret, serve.path, kept.length, kept), { 409: kept.length });
    await drive(serve, presign(serve.secret, serve.path, 10_000), { 200: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { firstAnswerMs, startedMs: serve.startedMs, rss: treeRss(serve.child.pid!) };
  } finally {
    await serve.stop();
  }
}

export const stateBench: Bench = {
  name: 'state',
  description: 'serve --state-dir: webhooks/s against serve in memory; disk, RSS and restart time with a million records',
  async run(): Promise<BenchReport> {
    const root = mkdtempSync(join(tmpdir(), 'ac-bench-state-'));
    try {
      const memory: Array<{ rps: number; p99: number }> = [];
      const durable: Array<{ rps: number; p99: number }> = [];
      for (let run = 0; run < RUNS; run += 1) {
        memory.push(await throughput(root, false, run));
        durable.push(await throughput(root, true, run));
      }
      const memoryRps = median(memory.map((r) => r.rps));
      const durableRps = median(durable.map((r) => r.rps));

      const throughputMetrics = [
        { label: 'serve in memory, webhooks/s (median)', value: Math.round(memoryRps), unit: 'req/s' },
        { label: 'serve --state-dir, webhooks/s (median)', value: Math.round(durableRps), unit: 'req/s' },
        { label: '--state-dir / in memory', value: Number((durableRps / memoryRps).toFixed(2)), unit: 'ratio' },
        { label: 'serve in memory, p99 (median of runs)', value: median(memory.map((r) => r.p99)), unit: 'ms' },
        { label: 'serve --state-dir, p99 (median of runs)', value: median(durable.map((r) => r.p99)), unit: 'ms' },
      ];
      const throughputNote = `throughput: the CLI's serve started fresh per run, in memory and with --state-dir alternately, ${RUNS} runs each; ${REQUESTS} unique pre-signed HMAC webhooks over ${CONNECTIONS} keep-alive connections (autocannon) after a 3000-webhook warm-up; every answer 200. In memory: ${memory.map((r) => Math.round(r.rps)).join(' · ')}/s; --state-dir: ${durable.map((r) => Math.round(r.rps)).join(' · ')}/s; node ${process.version}.`;
      if (RECORDS === 0) return { name: 'state', metrics: throughputMetrics, notes: [throughputNote, 'BENCH_STATE_RECORDS=0: the million-record part was skipped.'] };

      // An empty DIR first (its tenant made by a serve), measured as the baseline of the restart.
      const emptyOut = join(root, 'empty');
      const emptyState = join(emptyOut, 'state');
      await (await startServe(emptyOut, emptyState)).stop();
      const empty = await restart(emptyOut, emptyState, []);

      const fullOut = join(root, 'full');
      const fullState = join(fullOut, 'state');
      const seeded = await startServe(fullOut, fullState);
      const fullListener = seeded.listenerId;
      await seeded.stop();
      const bytesBefore = bytesUnder(fullState);
      const filled = await fill(fullState, fullListener, RECORDS);
      const disk = bytesUnder(fullState) - bytesBefore;
      const full = await restart(fullOut, fullState, filled.sample.slice(0, 5000));
      const MiB = 2 ** 20;
      return {
        name: 'state',
        metrics: [
          ...throughputMetrics,
          { label: `fill through the store API (${RECORDS} records)`, value: Math.round(filled.perSecond), unit: 'records/s' },
          { label: 'bytes on disk per record', value: Math.round(disk / RECORDS), unit: 'bytes' },
          { label: `RSS of serve, ${RECORDS} records`, value: Math.round(full.rss / MiB), unit: 'MiB' },
          { label: 'RSS of serve, empty DIR', value: Math.round(empty.rss / MiB), unit: 'MiB' },
          { label: 'RSS per remembered record', value: Number(((full.rss - empty.rss) / RECORDS).toFixed(1)), unit: 'bytes' },
          { label: `restart to first answer, ${RECORDS} records`, value: Math.round(full.firstAnswerMs), unit: 'ms' },
          { label: 'restart to first answer, empty DIR', value: Math.round(empty.firstAnswerMs), unit: 'ms' },
        ],
        notes: [
          throughputNote,
          `a million records: filled through openStateDir → eventStore.claim (serve's code, no HTTP; 4096 claims in flight) for the hmac listener of a tenant a serve made on that DIR; disk = bytes under DIR after the fill minus before; restart = spawn of serve --state-dir → first webhook answered 200; RSS = VmRSS of serve's process tree (supervisor + serving child) after 5000 kept IDs answered 409 and 10000 new ones 200.`,
        ],
      };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
