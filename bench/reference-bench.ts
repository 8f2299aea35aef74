/**
 * Reference implementation benchmark (method in docs/benchmarks-reference.md):
 * 1. HMAC webhook hot path: the sandbox runs in a child process; this process pre-signs N unique requests
 *    (fresh event ID each, timestamp now, ~200-byte JSON body) and replays them with autocannon over
 *    keep-alive connections to 127.0.0.1. Signing is outside the measured loop; every answer must be 200.
 * Memory per remembered event and per token is the reference-memory bench (bench/reference-memory-bench.ts).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonRequest } from 'autocannon';
import type { Bench, BenchReport } from './registry.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

export interface ServerInfo {
  baseUrl: string;
  profilePath: string;
}

/** A sandbox in a child process (bench/reference-server.ts unless another script is named); IPC stays open. */
export async function startServerChild(
  dir: string,
  script = 'reference-server.js',
  execArgv: string[] = [],
): Promise<{ info: ServerInfo; child: ChildProcess; stop: () => void }> {
  const child = fork(join(HERE, script), [dir], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServerInfo));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { info, child, stop: () => child.disconnect() };
}

/** `count` signed webhooks, each with a fresh event ID, or with the given `eventIds` (duplicates on purpose). */
export function presign(secret: string, path: string, count: number, eventIds?: readonly string[]): AutocannonRequest[] {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const body = JSON.stringify({ user: { id: 'u-123', email: 'someone@example.com' }, action: 'grant', entitlement: 'e-456', note: 'x'.repeat(80) });
  return Array.from({ length: count }, (_, index) => {
    const eventId = eventIds?.[index] ?? randomUUID();
    const signature = createHmac('sha256', secret).update(`${timestamp}.${eventId}.${body}`).digest('base64url');
    return {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': eventId, 'webhook-signature': signature },
      body,
    };
  });
}

async function hotPath(info: ServerInfo): Promise<{ rps: number; p50: number; p99: number; non200: number; total: number; seconds: number }> {
  const profile = JSON.parse(readFileSync(info.profilePath, 'utf8')) as { webhooks: { hmac: { listenerId: string; secret: string } } };
  const { listenerId, secret } = profile.webhooks.hmac;
  const path = `/api/v1/webhooks/incoming/${listenerId}`;
  const run = async (amount: number) => {
    const prepared = presign(secret, path, amount);
    let next = 0;
    // One request template; setupRequest hands out the next pre-signed request, so each event ID is sent once.
    const result = await autocannon({
      url: info.baseUrl,
      connections: CONNECTIONS,
      amount,
      timeout: 10,
      requests: [{ setupRequest: () => prepared[next++] ?? prepared[prepared.length - 1] }],
    });
    return result;
  };
  await run(Math.min(5000, REQUESTS)); // warm-up: JIT, connection setup
  const result = await run(REQUESTS);
  const ok = result.statusCodeStats['200']?.count ?? 0;
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non200: result.requests.total - Number(ok),
    total: result.requests.total,
    seconds: result.duration,
  };
}

export const referenceBench: Bench = {
  name: 'reference',
  description: 'Reference implementation: HMAC webhook hot path (requests/s)',
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-'));
    const server = await startServerChild(dir);
    try {
      const hot = await hotPath(server.info);
      return {
        name: 'reference',
        metrics: [
          { label: 'HMAC webhook requests per second', value: Math.round(hot.rps), unit: 'req/s' },
          { label: 'HMAC webhook latency p50', value: hot.p50, unit: 'ms' },
          { label: 'HMAC webhook latency p99', value: hot.p99, unit: 'ms' },
          { label: 'answers other than 200', value: hot.non200, unit: 'requests' },
        ],
        notes: [
          `${hot.total} unique pre-signed HMAC webhooks over ${CONNECTIONS} keep-alive connections to 127.0.0.1 in ${hot.seconds.toFixed(1)} s (after a warm-up run); server in its own process; node ${process.version}, ${(await import('node:os')).cpus().length} CPUs.`,
        ],
      };
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
