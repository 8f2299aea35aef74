/**
 * `--seed` fixes the bodies a run sends, whatever the concurrency: the embedded default run twice with one
 * seed, at --concurrency 1 and 8, and every request body in the recorded exchanges (the HAR report) compared
 * byte for byte, check by check. Every body a check generates comes from the run seed scoped by the check's
 * ID and numbered within the check, so what other checks run beside it changes nothing.
 *
 * Compared: request bodies only. Left out on purpose, because they must be fresh on every run: event IDs
 * (a target remembers them for 7 days, so a repeated ID would be refused as a replay), timestamps and the
 * signatures and JWTs built over them; all of them travel in headers (Webhook-Event-Id, Webhook-Timestamp,
 * Webhook-Signature, Authorization), not in the bodies compared here, and a client assertion in a token
 * form is redacted in the record. A check's exchanges are recorded up to a bound (first 11 and the last),
 * and a check that polls (waits for a run to settle, a rotated key to be accepted) sends as many requests as
 * the target's timing asks for: where the two runs recorded different numbers of bodies for a check, the
 * smaller set must be contained in the larger, each body byte for byte. Most checks must match exactly.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Har } from '../../src/reporters/har.js';
import { runCli } from './support.js';

// Two whole embedded runs, one at --concurrency 1, beside the container builds of the full lane: on the
// 2-core CI machine one took over 240 s under that load, so each gets 7 min and a deadline to match.
const RUN_TIMEOUT_MS = 420_000;
const SEED = 'same-bodies-5eed';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ac-seed-bodies-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Non-empty request bodies of each check (the HAR entry's comment starts with the check's ID), sorted. */
async function bodiesByCheck(concurrency: number): Promise<Map<string, string[]>> {
  const har = join(work, `c${concurrency}.har`);
  const result = await runCli(['run', '--seed', SEED, '--concurrency', String(concurrency), '--har', har, '--max-duration', '6m', '--out', join(work, `c${concurrency}`)], { timeoutMs: RUN_TIMEOUT_MS });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const log = (JSON.parse(await readFile(har, 'utf8')) as Har).log;
  const byCheck = new Map<string, string[]>();
  for (const entry of log.entries) {
    const id = (entry.comment ?? '').split(':')[0]!;
    const body = entry.request.postData?.text ?? '';
    if (body === '') continue;
    byCheck.set(id, [...(byCheck.get(id) ?? []), body]);
  }
  for (const bodies of byCheck.values()) bodies.sort();
  return byCheck;
}

/** Bodies of `smaller` missing from `larger` (as multisets). */
function missing(smaller: readonly string[], larger: readonly string[]): string[] {
  const left = [...larger];
  return smaller.filter((body) => {
    const at = left.indexOf(body);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

describe('--seed fixes the bodies sent', () => {
  it('one seed at concurrency 1 and 8: the same bodies, byte for byte, check by check', async () => {
    const one = await bodiesByCheck(1);
    const eight = await bodiesByCheck(8);
    expect([...eight.keys()].sort()).toEqual([...one.keys()].sort());
    let exact = 0;
    let compared = 0;
    const mismatches: string[] = [];
    for (const [id, a] of one) {
      const b = eight.get(id) ?? [];
      compared += Math.min(a.length, b.length);
      if (a.length === b.length && a.every((body, i) => body === b[i])) {
        exact += 1;
        continue;
      }
      const [smaller, larger] = a.length <= b.length ? [a, b] : [b, a];
      const absent = missing(smaller, larger);
      if (absent.length > 0) mismatches.push(`${id}: ${absent.length} body(ies) sent in one run only, e.g. ${absent[0]!.slice(0, 160)}`);
    }
    expect(mismatches).toEqual([]);
    // The webhook checks alone send well over a hundred generated bodies: the comparison is not vacuous.
    expect(compared).toBeGreaterThan(300);
    expect(exact / one.size).toBeGreaterThan(0.95);
  }, 2 * RUN_TIMEOUT_MS);
});
