/**
 * What the sandbox's diagnoses cost (issue 45): CPU time of the server process per valid HMAC webhook,
 * with the wrappers `serve` puts around the reference (observeHandler(diagnosingHandler(…)) and the
 * console observer) and without them; two servers in child processes, the same pre-signed requests
 * (fresh event IDs, ~200-byte body), rounds interleaved and alternated (plain-wrapped, then
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

/** bench/sandbox-server.ts in a child process, `plain` or `wrapped`, in its own profile folder. */
async function startServer(dir: string, mode: 'plain' | 'wrapped'): Promise<Server> {
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), 'sandbox-server.js'), [join(dir, mode), mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServerInfo));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { info, child, stop: () => child.disconnect() };
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

async function compare(plain: Server, wrapped: Server, refused: boolean): Promise<{ plain: number; wrapped: number }> {
  const expect = refused ? '401' : '200';
  const sides = { plain: [] as number[], wrapped: [] as number[] };
  // Warm-up: JIT and connections, not measured.
  await round(plain, requests(plain.info, 2000, refused), expect);
  await round(wrapped, requests(wrapped.info, 2000, refused), expect);
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = r % 2 === 0 ? (['plain', 'wrapped'] as const) : (['wrapped', 'plain'] as const);
    for (const side of order) {
      const server = side === 'plain' ? plain : wrapped;
      sides[side].push(await round(server, requests(server.info, REQUESTS, refused), expect));
    }
  }
  return { plain: median(sides.plain), wrapped: median(sides.wrapped) };
}

export const sandboxDiagnosesBench: Bench = {
  name: 'sandbox-diagnoses',
  description: "The sandbox's diagnoses: server CPU per valid webhook with and without the wrappers (median of 5 interleaved rounds)",
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-diagnoses-'));
    const load = loadavg()[0]!;
    const plain = await startServer(dir, 'plain');
    let wrapped: Server | undefined;
    try {
      wrapped = await startServer(dir, 'wrapped');
      return await measure(plain, wrapped, load);
    } finally {
      plain.stop();
      wrapped?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

async function measure(plain: Server, wrapped: Server, load: number): Promise<BenchReport> {
  const valid = await compare(plain, wrapped, false);
  const refused = await compare(plain, wrapped, true);
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
      `${REQUESTS} pre-signed HMAC webhooks a round over ${CONNECTIONS} keep-alive connections to 127.0.0.1, each server in its own process, CPU = the server's user+system time over the round / requests; ${ROUNDS} rounds a side, interleaved and alternated, median; after a 2000-request warm-up each. Load average ${load.toFixed(2)} at the start; node ${process.version}.`,
      'Refused: a signature no named transformation makes, so every HMAC mistake is tried (the most a diagnosis costs); past its time budget (10% of the wall clock) the wrapped server skips diagnoses, which bounds this figure under a flood.',
    ],
  };
}
