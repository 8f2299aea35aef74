/**
 * What the sandbox's diagnoses cost (issue 45): CPU time of the server process per valid HMAC webhook,
 * with the wrappers `serve` puts around the reference (observeHandler(diagnosingHandler(…)) and the
 * console observer) and without them; one server in a child process holding both handlers, the parent
 * switching which answers (so no process is favoured by the machine), the same kind of pre-signed
 * requests (fresh event IDs, ~200-byte body), rounds interleaved and alternated (plain-wrapped, then
 * wrapped-plain), the median of 5 rounds each. Then the same for a flood of refused webhooks (a signature
 * nothing explains), which the wrapped server diagnoses within its time budget.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { median, type Bench, type BenchReport } from './registry.js';
import { presign, type ServerInfo } from './reference-bench.js';

const REQUESTS = Number(process.env.BENCH_DIAGNOSES_REQUESTS ?? 20_000);
const ROUNDS = 5;
const CONNECTIONS = 8;

interface Server {
  info: ServerInfo;
  child: ChildProcess;
  stop(): void;
}

/** bench/sandbox-server.ts in a child process, in its own profile folder. */
async function startServer(dir: string): Promise<Server> {
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), 'sandbox-server.js'), [dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServerInfo));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { info, child, stop: () => child.disconnect() };
}

/** Which handler answers from now on; resolves once the server says it switched. */
function use(server: Server, mode: 'plain' | 'wrapped'): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      if ((message as { mode?: string }).mode !== mode) return;
      server.child.off('message', onMessage);
      resolve();
    };
    server.child.on('message', onMessage);
    server.child.send({ mode });
  });
}

function cpuMicros(server: Server): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      const cpu = (message as { cpu?: NodeJS.CpuUsage }).cpu;
      if (cpu === undefined) return;
      server.child.off('message', onMessage);
      resolve(cpu.user + cpu.system);
    };
    server.child.on('message', onMessage);
    server.child.send('cpu');
  });
}

function requests(info: ServerInfo, count: number, refused: boolean): AutocannonRequest[] {
  const profile = JSON.parse(readFileSync(info.profilePath, 'utf8')) as { webhooks: { hmac: { listenerId: string; secret: string } } };
  const { listenerId, secret } = profile.webhooks.hmac;
  const signed = presign(secret, `/api/v1/webhooks/incoming/${listenerId}`, count);
  if (!refused) return signed;
  // A signature no named transformation makes: the diagnosis tries every HMAC mistake and finds none.
  return signed.map((request, i) => ({ ...request, headers: { ...request.headers, 'webhook-signature': createHash('sha256').update(String(i)).digest('base64url') } }));
}

/** CPU microseconds of the server per request over one round, and the answers by status. */
async function round(server: Server, prepared: AutocannonRequest[], expect: string): Promise<number> {
  let next = 0;
  const before = await cpuMicros(server);
  const result = await autocannon({ url: server.info.baseUrl, connections: CONNECTIONS, amount: prepared.length, timeout: 10, requests: [{ setupRequest: () => prepared[next++] ?? prepared[prepared.length - 1] }] });
  const after = await cpuMicros(server);
  const matching = Number(result.statusCodeStats[expect as '200']?.count ?? 0);
  if (matching !== prepared.length) throw new Error(`expected ${prepared.length} answers ${expect}, got ${matching} (${JSON.stringify(result.statusCodeStats)})`);
  return (after - before) / prepared.length;
}

async function compare(server: Server, refused: boolean): Promise<{ plain: number; wrapped: number; rounds: string }> {
  const expect = refused ? '401' : '200';
  const sides = { plain: [] as number[], wrapped: [] as number[] };
  // Warm-up of both paths: JIT and connections, not measured.
  for (const mode of ['plain', 'wrapped'] as const) {
    await use(server, mode);
    await round(server, requests(server.info, 2000, refused), expect);
  }
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = r % 2 === 0 ? (['plain', 'wrapped'] as const) : (['wrapped', 'plain'] as const);
    for (const side of order) {
      await use(server, side);
      sides[side].push(await round(server, requests(server.info, REQUESTS, refused), expect));
    }
  }
  const rounds = sides.plain.map((p, i) => `${p.toFixed(1)}/${sides.wrapped[i]!.toFixed(1)}`).join(', ');
  return { plain: median(sides.plain), wrapped: median(sides.wrapped), rounds };
}

export const sandboxDiagnosesBench: Bench = {
  name: 'sandbox-diagnoses',
  description: "The sandbox's diagnoses: server CPU per valid webhook with and without the wrappers (median of 5 interleaved rounds)",
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-diagnoses-'));
    const load = loadavg()[0]!;
    const server = await startServer(dir);
    try {
      return await measure(server, load);
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

async function measure(server: Server, load: number): Promise<BenchReport> {
  const valid = await compare(server, false);
  const refused = await compare(server, true);
  return {
    name: 'sandbox-diagnoses',
    metrics: [
      { label: 'CPU per valid webhook without diagnoses', value: Math.round(valid.plain), unit: 'µs' },
      { label: 'CPU per valid webhook with diagnoses', value: Math.round(valid.wrapped), unit: 'µs' },
      { label: 'valid webhook CPU with diagnoses / without', value: Number((valid.wrapped / valid.plain).toFixed(3)), unit: 'x' },
      { label: 'CPU per refused webhook without diagnoses', value: Math.round(refused.plain), unit: 'µs' },
      { label: 'CPU per refused webhook with diagnoses', value: Math.round(refused.wrapped), unit: 'µs' },
    ],
    notes: [
      `${REQUESTS} pre-signed HMAC webhooks a round over ${CONNECTIONS} keep-alive connections to 127.0.0.1, one server process answering with either handler (switched between rounds), CPU = its user+system time over the round / requests; ${ROUNDS} rounds a side, interleaved and alternated, median; after a 2000-request warm-up each. Load average ${load.toFixed(2)} at the start; node ${process.version}.`,
      `Rounds, µs without/with: valid ${valid.rounds}; refused ${refused.rounds}.`,
      'Refused: a signature no named transformation makes, so every HMAC mistake is tried (the most a diagnosis costs); past its time budget (10% of the wall clock) the wrapped server skips diagnoses, which bounds this figure under a flood.',
    ],
  };
}
