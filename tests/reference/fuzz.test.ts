/**
 * Never 500, never a crash: a few thousand faker-seeded malformed requests over real HTTP, then proof the
 * server still works. Set REFERENCE_FUZZ_SEED to replay a failing seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededFaker } from '../../src/data/fake.js';
import { fetchCase, rawCase, signedCase, type FetchCase } from './support/fuzz-cases.js';
import { rawRequest } from './support/raw.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';

const SEED = process.env.REFERENCE_FUZZ_SEED ?? 'reference-fuzz-1';
const FETCH_CASES = 2400;
const SIGNED_CASES = 400;
const RAW_CASES = 500;
const CONCURRENCY = 8;

let t: TestSandbox;
let port: number;
const logged: string[] = [];
beforeAll(async () => {
  t = await startTestSandbox({ serveJwks: true, logger: (line) => logged.push(line) });
  port = Number(new URL(t.baseUrl).port);
});
afterAll(async () => t?.close());

async function sendFetch(c: FetchCase): Promise<number | string> {
  try {
    const response = await fetch(`${t.baseUrl}${c.path}`, {
      method: c.method,
      headers: c.headers,
      body: c.body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.status;
  } catch (error) {
    // A connection closed after an early 413 may surface as a fetch error; that is not a 5xx.
    return `error:${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`;
  }
}

async function pool<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await run(item);
      }
    }),
  );
}

describe(`fuzz (seed ${SEED})`, () => {
  it('answers no 5xx to thousands of malformed requests and keeps serving', async () => {
    const faker = seededFaker(SEED, 'reference-fuzz');
    const now = await t.clock();
    const fetchCases = [
      ...Array.from({ length: FETCH_CASES }, () => fetchCase(faker, t.profile)),
      ...Array.from({ length: SIGNED_CASES }, () => signedCase(faker, t.profile, now)),
    ];
    const rawCases = Array.from({ length: RAW_CASES }, () => rawCase(faker, t.profile));
    const fiveHundreds: string[] = [];
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    const count = (key: string): void => void statuses.set(key, (statuses.get(key) ?? 0) + 1);

    await pool(fetchCases, async (c) => {
      const status = await sendFetch(c);
      count(String(status).startsWith('error') ? String(status).slice(0, 60) : String(status));
      if (typeof status === 'number' && status >= 500) fiveHundreds.push(`${status} ${c.method} ${c.path.slice(0, 120)}`);
      // Only a body the server refused early may see its connection closed under it.
      if (typeof status === 'string' && (c.body?.length ?? 0) <= 16 * 1024) failures.push(`${status} ${c.method} ${c.path.slice(0, 120)}`);
    });
    await pool(rawCases, async (c) => {
      const result = await rawRequest(port, c.bytes, { timeoutMs: c.incomplete ? 150 : 2000, untilStatus: true });
      count(result.status === undefined ? 'raw-no-answer' : `raw-${result.status}`);
      if (result.status !== undefined && result.status >= 500) fiveHundreds.push(`${result.status} raw ${c.bytes.subarray(0, 80).toString('latin1')}`);
    });

    if (process.env.FUZZ_DEBUG) console.log(JSON.stringify(Object.fromEntries(statuses)));
    expect(fiveHundreds, `seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries(statuses))}`).toEqual([]);
    expect(failures, `seed ${SEED}`).toEqual([]);
    // The mix really reached every layer: authentication, parsing, idempotency and runs.
    for (const status of ['200', '400', '401', '404', '405', '413', 'raw-400']) expect(statuses.get(status) ?? 0, status).toBeGreaterThan(0);
    expect(logged.filter((line) => line.startsWith('unexpected error'))).toEqual([]);

    // Still alive and correct.
    const token = await t.token();
    expect(token.length).toBeGreaterThan(10);
    expect((await t.hmac(t.profile.webhooks.hmac)).status).toBe(200);
  }, 120_000);
});
