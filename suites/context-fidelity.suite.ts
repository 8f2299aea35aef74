/**
 * §4.3 "the whole body is passed to the automation as context data" (rulings 19, 28), compared by JSON
 * value: numbers a double holds, escapes, nesting and raw non-ASCII text (MUST); numbers beyond a double's
 * precision and `\u0000` (SHOULD); `-0` and numbers beyond a double's range (INFO, recorded). The runs hook's answer is read as text and
 * parsed without JavaScript numbers (support/lossless-json.ts): numbers compare by exact value, strings
 * by the text they decode to, so only a real loss fails.
 */
import type { HttpResponse, TargetClient } from '../src/client/types.js';
import { HarnessError } from '../src/errors.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { fail } from './support/expect.js';
import { losslessDifference, parseLossless, type LosslessValue } from './support/lossless-json.js';
import { expectAccepted, POLL_MS, RUN_APPEAR_MS, sleep } from './support/webhook-expect.js';
import { freshEventId, hmacListener } from './support/webhook-values.js';

/** The runs hook lists every run of the listener; as in the client's hooks, a far larger bound than usual. */
const RUNS_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/** Each check's body, as JSON text written by hand: what JSON.stringify cannot write is the point. */
const BODIES: ReadonlyArray<[RequirementId, string, string]> = [
  ['RUN-X07', 'numbers a double holds exactly',
    '{"maxSafe":9007199254740992,"minSafe":-9007199254740991,"tenth":0.1,"pi":3.141592653589793,"small":1.5e-10,"decimal":123456.789,"nested":{"list":[1,-2.5,{"deep":[0.25,1e21]}]}}'],
  ['RUN-X01', 'integers beyond 2^53',
    '{"above2to53":9007199254740993,"below":-9007199254740993,"thirtyDigits":123456789012345678901234567890,"list":[18446744073709551617,-1]}'],
  ['RUN-X02', 'long decimals',
    '{"tenth":0.1000000000000000055511151231257827,"pi":3.14159265358979323846264338327950288,"tiny":0.000000000000000000000000000001234567890123456789}'],
  ['RUN-X05', 'escapes',
    '{"emoji":"\\ud83d\\ude00","slash":"\\/path\\/x","quote":"\\"q\\"","backslash":"\\\\","controls":"\\b\\f\\n\\r\\t","lineSeparator":"\\u2028","key\\u00e9":"\\u00E9"}'],
  ['RUN-X06', 'raw non-ASCII text',
    '{"combining":"e\u0301 and \u00e9","rtl":"مرحبا بالعالم","family":"👩‍👩‍👧","lineSeparator":"a\u2028b","replacement":"\ufffd","cjk":"漢字かな","ключ":"значение"}'],
  ['RUN-X08', 'a NUL character', '{"nul":"a\\u0000b","nested":{"k":["\\u0000"]}}'],
];

/** INFO (ruling 28): values no reading is required to keep; what arrives is recorded. */
const RECORDED: ReadonlyArray<[RequirementId, string, string]> = [
  ['RUN-X03', '-0', '{"negativeZero":-0,"negativeZeroFraction":-0.0,"list":[-0],"nested":{"z":-0}}'],
  ['RUN-X04', 'numbers beyond the range of a double', '{"big":1e400,"negativeBig":-1e400,"small":1e-400,"upper":1E+400}'],
];

function hooksOf(client: TargetClient): { baseUrl: string; token?: string } {
  const hooks = client.profile.hooks;
  if (!hooks) throw new HarnessError('INTERNAL', 'a check that needs hooks.runs ran without hooks in the profile');
  return hooks;
}

/** The context of the event's run as the runs hook's text holds it; polls until it shows. */
async function losslessContext(client: TargetClient, listenerId: string, eventId: string): Promise<LosslessValue> {
  const { baseUrl, token } = hooksOf(client);
  const deadline = Date.now() + RUN_APPEAR_MS;
  for (;;) {
    const res = await client.request({
      method: 'GET',
      url: `${baseUrl.replace(/\/+$/, '')}/runs?listenerId=${encodeURIComponent(listenerId)}`,
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      label: `hooks: runs of ${listenerId} (read as text)`,
      maxResponseBytes: RUNS_MAX_RESPONSE_BYTES,
    });
    let runs: LosslessValue | undefined;
    try {
      const body = parseLossless(res.text());
      runs = body instanceof Map ? body.get('runs') : undefined;
    } catch {
      runs = undefined;
    }
    if (res.status !== 200 || !Array.isArray(runs)) {
      throw new HarnessError('HOOK_BROKEN', `the test hook GET /runs answered ${res.status} without {"runs": [...]} as JSON text`, { field: 'hooks' });
    }
    const run = runs.find((entry) => entry instanceof Map && entry.get('eventId') === eventId);
    if (run instanceof Map && run.has('context')) return run.get('context')!;
    if (Date.now() >= deadline) fail(`no run of event ${eventId} in the runs hook within ${RUN_APPEAR_MS} ms after its 200`, 'one run', 'no run');
    await sleep(POLL_MS);
  }
}

/** Sends the body; the difference between it and the run's context, or undefined when they are equal. */
async function contextDifference(ctx: CheckContext, what: string, body: string): Promise<{ refused: HttpResponse } | { diff: string | undefined }> {
  const { listenerId } = hmacListener(ctx.profile);
  const eventId = freshEventId();
  const res = await ctx.client.sendWebhook('hmac', { eventId, body, label: `runs: body with ${what}` });
  if (res.status !== 200) return { refused: res };
  const context = await losslessContext(ctx.client, listenerId, eventId);
  return { diff: losslessDifference(parseLossless(body), context) };
}

async function expectLosslessContext(ctx: CheckContext, what: string, body: string): Promise<void> {
  const result = await contextDifference(ctx, what, body);
  if ('refused' in result) expectAccepted(result.refused, `valid request whose body holds ${what}`);
  else if (result.diff) fail(`the run's context differs from the body (${what}) at ${result.diff}`, 'the context equal to the body, every digit and character', result.diff);
}

group('§4.3 Automation runs: context fidelity', () => {
  for (const [id, what, body] of BODIES) {
    check(id, async (ctx) => expectLosslessContext(ctx, what, body));
  }
  for (const [id, what, body] of RECORDED) {
    check(id, async (ctx) => {
      const result = await contextDifference(ctx, what, body);
      if ('refused' in result) ctx.note(`body with ${what}: refused ${result.refused.status}`);
      else ctx.note(`body with ${what}: ${result.diff ? `the context differs at ${result.diff}` : 'the context equals the body'}`);
    });
  }
});
