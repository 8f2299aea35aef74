/** Synthetic results and summaries for reporter and verdict tests (no target involved). */
import type { RecordedExchange } from '../../../src/client/types.js';
import type { CheckResult, RunSummary } from '../../../src/engine/types.js';
import { computeTotals } from '../../../src/engine/counts.js';
import { computeVerdict } from '../../../src/engine/verdict.js';
import type { Level } from '../../../src/requirements/types.js';

export function exchange(overrides: { requestBody?: string; responseBody?: string; authorization?: string; status?: number; method?: string; url?: string } = {}): RecordedExchange {
  return {
    seq: 1,
    label: 'token: wrong secret',
    request: {
      method: overrides.method ?? 'POST',
      url: overrides.url ?? 'http://127.0.0.1:1/auth/v1/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(overrides.authorization ? { authorization: overrides.authorization } : {}) },
      body: overrides.requestBody ?? 'grant_type=client_credentials',
      bodyBytes: (overrides.requestBody ?? 'grant_type=client_credentials').length,
      bodyTruncated: false,
    },
    response: {
      status: overrides.status ?? 200,
      headers: { 'content-type': 'application/json' },
      body: overrides.responseBody ?? '{"ok":true}',
      bodyBytes: (overrides.responseBody ?? '{"ok":true}').length,
      bodyTruncated: false,
    },
    startedAt: 0,
    durationMs: 12,
  };
}

export function result(id: string, state: CheckResult['state'], level: Level = 'MUST', extra: Partial<CheckResult> = {}): CheckResult {
  return {
    id,
    level,
    group: id.startsWith('WH') ? 'webhook-hmac' : 'tokens',
    section: '5.4',
    text: `requirement ${id} <&> "quoted"`,
    state,
    observations: [],
    exchanges: [],
    durationMs: 5,
    phase: 'main',
    ...(state === 'skipped' ? { reason: 'profile has no webhooks.jwt' } : {}),
    ...(state === 'failed' ? { failure: { message: `${id} got 200`, expected: 'a 4xx status', actual: '200 (application/json)' } } : {}),
    ...(state === 'errored' ? { harnessError: { code: 'TIMEOUT' as const, message: 'no answer in 10000 ms' } } : {}),
    ...extra,
  };
}

export function summary(results: CheckResult[], options: { strict?: boolean } = {}): RunSummary {
  const strict = options.strict ?? false;
  return {
    header: {
      tool: { name: 'access-conformance', version: '0.1.0' },
      catalogueVersion: '1.0.0',
      profileName: 'test profile',
      target: 'http://127.0.0.1:1',
      seed: 'seed-1',
      date: '2030-01-01T00:00:00.000Z',
      selection: { only: [], skip: [], selected: results.length },
      strict,
      settings: { timeoutMs: 10_000, concurrency: 2 },
      capabilities: { clock: true, runs: false },
      notes: [],
      selectedIds: results.map((r) => r.id),
    },
    results,
    totals: computeTotals(results, strict),
    verdict: computeVerdict(results, strict, 0),
    warnings: [],
    durationMs: 1234,
    harnessErrors: [],
  };
}
