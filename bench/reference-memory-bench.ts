/**
 * Memory per remembered event and per access token, end to end (method in docs/benchmarks-reference.md):
 * the sandbox `serve` runs, in a child process started with --expose-gc (bench/reference-memory.ts), is sent
 * N unique signed webhooks and then M token requests over keep-alive HTTP on 127.0.0.1; before and after
 * each batch the child forces full collections and reports heapUsed and rss. The deltas divided by the
 * counts are what a long soak against `serve` costs per event and per token.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { presign, startServerChild, type ServerInfo } from './reference-bench.js';
import type { Bench, BenchReport } from './registry.js';

const EVENTS = Number(process.env.BENCH_MEMORY_EVENTS ?? 200_000);
/** Events are sent in this many batches, measured after each: the Map's table grows in steps. */
const BATCHES = 4;
const TOKENS = Number(process.env.BENCH_MEMORY_TOKENS ?? 20_000);
/** Sent before the baseline: fills the run log (1,000 runs per listener), warms the JIT and the pools. */
const WARM_UP = 3000;

interface Usage {
  heapUsed: number;
  rss: number;
}

function measure(child: ChildProcess): Promise<Usage> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Usage));
    child.send('measure');
  });
}

async function replay(info: ServerInfo, requests: AutocannonRequest[], expected: number): Promise<void> {
  let next = 0;
  const result = await autocannon({
    url: info.baseUrl,
    connections: 16,
    amount: requests.length,
    timeout: 10,
    requests: [{ setupRequest: () => requests[next++] ?? requests[requests.length - 1] }],
  });
  const ok = Number(result.statusCodeStats[String(expected) as '200']?.count ?? 0);
  if (ok !== requests.length) throw new Error(`expected ${requests.length} answers ${expected}, got ${ok} (of ${result.requests.total})`);
}

export const referenceMemoryBench: Bench = {
  name: 'reference-memory',
  description: 'Reference implementation: heap and RSS per remembered event and per access token, through HTTP',
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-memory-'));
    const server = await startServerChild(dir, 'reference-memory.js', ['--expose-gc']);
    try {
      const profile = JSON.parse(readFileSync(server.info.profilePath, 'utf8')) as {
        webhooks: { hmac: { listenerId: string; secret: string } };
        credentials: { primary: { clientId: string; clientSecret: string } };
      };
      const path = `/api/v1/webhooks/incoming/${profile.webhooks.hmac.listenerId}`;
      const { clientId, clientSecret } = profile.credentials.primary;
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
      const tokenRequests = (count: number): AutocannonRequest[] =>
        Array.from({ length: count }, () => ({
          method: 'POST',
          path: '/auth/v1/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        }));

      await replay(server.info, presign(profile.webhooks.hmac.secret, path, WARM_UP), 200);
      await replay(server.info, tokenRequests(WARM_UP), 200);
      const base = await measure(server.child);
      const batch = Math.ceil(EVENTS / BATCHES);
      const perBatch: number[] = [];
      let previous = base;
      for (let sent = 0; sent < EVENTS; sent += batch) {
        await replay(server.info, presign(profile.webhooks.hmac.secret, path, Math.min(batch, EVENTS - sent)), 200);
        const now = await measure(server.child);
        perBatch.push((now.heapUsed - previous.heapUsed) / Math.min(batch, EVENTS - sent));
        previous = now;
      }
      const afterEvents = previous;
      await replay(server.info, tokenRequests(TOKENS), 200);
      const afterTokens = await measure(server.child);
      const per = (after: number, before: number, count: number): number => Math.round((after - before) / count);
      return {
        name: 'reference-memory',
        metrics: [
          { label: 'heap per remembered event', value: per(afterEvents.heapUsed, base.heapUsed, EVENTS), unit: 'bytes' },
          { label: 'heap per event, lowest batch', value: Math.round(Math.min(...perBatch)), unit: 'bytes' },
          { label: 'heap per event, highest batch', value: Math.round(Math.max(...perBatch)), unit: 'bytes' },
          { label: 'RSS per remembered event', value: per(afterEvents.rss, base.rss, EVENTS), unit: 'bytes' },
          { label: 'heap per access token', value: per(afterTokens.heapUsed, afterEvents.heapUsed, TOKENS), unit: 'bytes' },
          { label: 'RSS per access token', value: per(afterTokens.rss, afterEvents.rss, TOKENS), unit: 'bytes' },
          { label: 'heap at the baseline (after GC)', value: Math.round(base.heapUsed / 2 ** 20), unit: 'MiB' },
          { label: 'RSS at the baseline', value: Math.round(base.rss / 2 ** 20), unit: 'MiB' },
          { label: 'heap after the run (after GC)', value: Math.round(afterTokens.heapUsed / 2 ** 20), unit: 'MiB' },
          { label: 'RSS after the run', value: Math.round(afterTokens.rss / 2 ** 20), unit: 'MiB' },
        ],
        notes: [
          `${EVENTS} unique signed HMAC webhooks (in ${BATCHES} batches, measured after each: the event Map's table doubles in steps, so a batch's cost varies), then ${TOKENS} token requests, over 16 keep-alive connections to the sandbox in its own process (after ${WARM_UP} of each as warm-up); heapUsed and rss after six forced full GCs before and after each batch; node ${process.version}.`,
          'RSS also counts the V8 heap growing in steps and the allocator keeping freed pages: treat it as what the OS sees at this size, not a per-object cost.',
        ],
      };
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
