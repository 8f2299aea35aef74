/**
 * Webhook-specific assertions: statuses with the webhook's wording, runs seen through the runs hook, and
 * a guard that the client really sent the one defect a check is about (so a client quirk can never turn a
 * refusal of something else into a pass).
 */
import { pause } from './check-slots.js';
import { isDeepStrictEqual } from 'node:util';
import type { HookRun, HttpResponse, TargetClient } from '../../src/client/types.js';
import { HarnessError } from '../../src/errors.js';
import { ControlNotAccepted, describeResponse, expectStatus, fail } from './expect.js';

/** How long a run may take to show in the runs hook after its 200 (an implementation may run async). */
export const RUN_APPEAR_MS = 5_000;
/** After the first run shows, how long to keep looking for a second one. */
export const RUN_SETTLE_MS = 300;
/** How long to watch for a run that must not appear. */
export const NO_RUN_WATCH_MS = 1_000;
/** Interval between two readings of the runs hook; no wait in the suites is a fixed sleep longer than this. */
export const POLL_MS = 100;

/**
 * The one timer of the suites: a poll's pause (tests/suites/waits.test.ts keeps it so). The check's slot
 * serves another check meanwhile (check-slots.ts).
 */
export const sleep = (ms: number): Promise<void> => pause(ms);

export function expectAccepted(res: HttpResponse, what: string): void {
  expectStatus(res, 200, what);
}

/**
 * A precondition: a request the check builds on (the first of two duplicates, a control) was accepted. When
 * it was not, the check cannot conclude and is blocked (src/engine/controls.ts): the target already broke
 * WH-01 or the like, which is where the report points.
 */
export function expectSetupAccepted(res: HttpResponse, what: string): void {
  if (res.status === 200) return;
  throw new ControlNotAccepted(`${what} (a valid request) got status ${res.status}, not 200, so this check cannot conclude`, 'status 200', describeResponse(res));
}

/** The value of a header of the request as the client sent it (after redaction), any case. */
export function sentHeader(res: HttpResponse, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const entry = Object.entries(res.exchange.request.headers).find(([key]) => key.toLowerCase() === wanted);
  return entry?.[1];
}

/**
 * Harness self-check: the request carried `name` with `value` (or, for `null`, did not carry it). A
 * mismatch is the harness's bug, not the target's: HarnessError, never a pass or a failure. `redact`: the
 * client recorder's, for a header the recorder redacts.
 */
export function assertSent(res: HttpResponse, name: string, value: string | null, redact?: (text: string) => string): void {
  const sent = sentHeader(res, name);
  // The recorder redacts credentials (a signature) in what it keeps: compare those in their redacted form.
  const ok = value === null ? sent === undefined : sent === value || (redact !== undefined && sent === redact(value));
  if (!ok) {
    const shown = sent === undefined ? 'no such header' : `"${sent}"`;
    const meant = value === null ? 'no such header' : `"${value}"`;
    throw new HarnessError('INTERNAL', `the client sent ${name}: ${shown} where the check meant ${meant}`);
  }
}

/** Harness self-check on the body size actually sent. */
export function assertSentBodyBytes(res: HttpResponse, bytes: number): void {
  if (res.exchange.request.bodyBytes !== bytes) {
    throw new HarnessError('INTERNAL', `the client sent a ${res.exchange.request.bodyBytes}-byte body where the check meant ${bytes} bytes`);
  }
}

/** `accepted` or `refused <status>`: the wording of INFO notes. */
export function outcome(res: HttpResponse): string {
  return res.status === 200 ? 'accepted (200)' : `refused ${res.status}`;
}

/** Runs of the listener for one event ID. */
export async function runsFor(client: TargetClient, listenerId: string, eventId: string): Promise<HookRun[]> {
  const hooks = client.hooks;
  if (!hooks) throw new HarnessError('INTERNAL', 'a check that needs hooks.runs ran without hooks in the profile');
  const runs = await hooks.runs(listenerId);
  return runs.filter((run) => run.eventId === eventId);
}

/** Polls until at least `count` runs of the event show or `timeoutMs` passes; returns the last reading. */
async function waitForRuns(client: TargetClient, listenerId: string, eventId: string, count: number, timeoutMs: number): Promise<HookRun[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsFor(client, listenerId, eventId);
    const left = deadline - Date.now();
    if (runs.length >= count || left <= 0) return runs;
    await sleep(Math.min(POLL_MS, left));
  }
}

/**
 * Exactly one run of the event: waits for it to show, then keeps looking for a second one for `settleMs`,
 * polling, so a second run fails the check as soon as it shows.
 */
export async function expectExactlyOneRun(client: TargetClient, listenerId: string, eventId: string, what: string, settleMs = RUN_SETTLE_MS): Promise<HookRun> {
  const first = await waitForRuns(client, listenerId, eventId, 1, RUN_APPEAR_MS);
  if (first.length === 0) {
    fail(`${what}: no run of event ${eventId} in the runs hook within ${RUN_APPEAR_MS} ms`, 'exactly one run', 'no run');
  }
  const runs = first.length > 1 ? first : await waitForRuns(client, listenerId, eventId, 2, settleMs);
  if (runs.length !== 1) fail(`${what}: ${runs.length} runs of event ${eventId}`, 'exactly one run', `${runs.length} runs`);
  return runs[0]!;
}

/** No run of the event shows while watching for `watchMs`. */
export async function expectNoRun(client: TargetClient, listenerId: string, eventId: string, what: string, watchMs = NO_RUN_WATCH_MS): Promise<void> {
  const runs = await waitForRuns(client, listenerId, eventId, 1, watchMs);
  if (runs.length > 0) fail(`${what}: the automation ran (${runs.length} run(s) of event ${eventId})`, 'no run', `${runs.length} run(s)`);
}

/** The first path at which two JSON values differ, for a failure message; undefined when equal. */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (isDeepStrictEqual(expected, actual)) return undefined;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `${path}: array of ${expected.length} items vs ${actual.length}`;
    for (let i = 0; i < expected.length; i += 1) {
      const diff = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (diff) return diff;
    }
  } else if (isObject(expected) && isObject(actual) && !Array.isArray(expected) && !Array.isArray(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      if (!(key in actual)) return `${path}.${key}: missing`;
      if (!(key in expected)) return `${path}.${key}: unexpected key`;
      const diff = firstDifference(expected[key], actual[key], `${path}.${key}`);
      if (diff) return diff;
    }
  }
  return `${path}: expected ${JSON.stringify(expected)?.slice(0, 80)}, got ${JSON.stringify(actual)?.slice(0, 80)}`;
}

/** The run's context deep-equals the JSON body that was sent. */
export function expectContextEquals(run: HookRun, body: unknown, what: string): void {
  const diff = firstDifference(body, run.context);
  if (diff) fail(`${what}: the run's context differs from the JSON body at ${diff}`, 'context equal to the JSON body', diff);
}

/** Counts of each status among responses, e.g. `200×1, 409×24`. */
export function statusHistogram(responses: readonly HttpResponse[]): string {
  const counts = new Map<number, number>();
  for (const res of responses) counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(', ');
}

export { describeResponse };
