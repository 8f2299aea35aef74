/**
 * What `send` makes of the answer and where it leaves a trace: the status service.md gives for the request
 * it sent (--strict exits on it) and the redacted exchange written to --out. Kept apart from
 * send-handler.ts, which builds and sends the request under its run scope (the --max-duration deadline).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ExchangeRecorder } from '../../client/types.js';
import { HarnessError } from '../../errors.js';
import type { ListenerKey } from '../../profile/types.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';
import type { BreakName, SendPlan } from './send-options.js';

/** The status each --break earns (service.md §7, rulings 14-16, 21-22); BREAKS says the same in words. */
export const BREAK_STATUS: Readonly<Record<BreakName, number>> = {
  signature: 401,
  body: 401,
  timestamp: 400,
  'event-id': 400,
  'content-type': 400,
  auth: 401,
  expired: 401,
};

/** The answers service.md allows for one request, and why in a few words. */
export interface ExpectedAnswer {
  accepts(status: number): boolean;
  /** e.g. `401 (--break signature)`, `not 200 (the automation is disabled: ruling 19)`. */
  text: string;
}

export interface SentRequest {
  listener: ListenerKey;
  breaks: readonly BreakName[];
  /** False when --raw sent a body that is not JSON. */
  bodyIsJson: boolean;
  /** --event-id was given: it may repeat an earlier one (409). */
  eventIdGiven: boolean;
  /** --timestamp as given, and the target's time it was sent at. */
  timestamp?: string;
  now: number;
}

/**
 * Every rule the request breaks, each with its status. The order of the 400 checks against 401/403 is not
 * stated (ruling 17), so a request breaking several rules may get any of their statuses; authentication
 * runs before the idempotency check, so a repeated event ID can get 409 only when nothing but a 400 or
 * 403 rule is broken.
 */
export function expectedAnswer(sent: SentRequest): ExpectedAnswer {
  const reasons: Array<[number, string]> = sent.breaks.map((name) => [BREAK_STATUS[name], `--break ${name}`]);
  if (!sent.bodyIsJson) reasons.push([400, 'the body is not JSON']);
  if (sent.timestamp !== undefined && !withinWindow(sent.timestamp, sent.now)) reasons.push([400, `--timestamp outside ±${WEBHOOK_TIMESTAMP_WINDOW_SECONDS} s`]);
  if (sent.listener === 'ipRestricted') reasons.push([403, 'the listener allows other source addresses']);
  if (sent.listener === 'jwtUnreachableJwks') reasons.push([401, "the listener's JWKS is unreachable"]);
  if (sent.eventIdGiven && reasons.every(([status]) => status !== 401)) reasons.push([409, 'if --event-id repeats an earlier one']);
  if (sent.listener === 'inactive' && reasons.every(([status]) => status === 409)) {
    return { accepts: (status) => status !== 200, text: 'not 200 (the automation is disabled: ruling 19)' };
  }
  const failing = reasons.filter(([status]) => status !== 409);
  const allowed = new Map<number, string[]>(failing.length === 0 ? [[200, ['accepted']]] : []);
  for (const [status, why] of reasons) allowed.set(status, [...(allowed.get(status) ?? []), why]);
  return {
    accepts: (status) => allowed.has(status),
    text: [...allowed].map(([status, why]) => `${status} (${why.join(', ')})`).join(' or '),
  };
}

function withinWindow(timestamp: string, now: number): boolean {
  return /^[0-9]{1,12}$/.test(timestamp) && Math.abs(Number(timestamp) - now) <= WEBHOOK_TIMESTAMP_WINDOW_SECONDS;
}

/**
 * The exit code of a send: with --strict, 0 exactly when the answer is one service.md gives for the
 * request; without it, 0 for 2xx and 1 otherwise (a mismatch is printed either way).
 */
export function sendExitCode(strict: boolean, expected: ExpectedAnswer, status: number): number {
  if (strict) return expected.accepts(status) ? 0 : 1;
  return status >= 200 && status < 300 ? 0 : 1;
}

/** A body --raw sends: is it JSON after all (then no 400 is due for it)? */
export function isJson(body: Buffer): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    return true;
  } catch {
    return false;
  }
}

export const EXCHANGE_FILE = 'send-exchange.json';

/** Where send-exchange.json goes; `prepareOut` creates the folder before anything is sent. */
export function exchangePath(outDir: string): string {
  return join(resolve(outDir), EXCHANGE_FILE);
}

export async function prepareOut(outDir: string): Promise<void> {
  try {
    await mkdir(resolve(outDir), { recursive: true });
  } catch (error) {
    throw new HarnessError('USAGE', `cannot create the --out folder ${outDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { field: '--out' });
  }
}

/**
 * The exchanges of this send (clock hook, token, the webhook), as the recorder redacted them, in --out;
 * written on every way out once it starts talking to the target, a failed, cut or interrupted request included. A write that fails is a note, not an error
 * that would hide why the send itself ended.
 */
export async function writeExchange(plan: SendPlan, recorder: ExchangeRecorder, expected: ExpectedAnswer | undefined): Promise<void> {
  const path = exchangePath(plan.outDir);
  // A replay's recipe file says what was sent; the plan's listener and breaks are not its.
  const document = plan.replay !== undefined
    ? { command: 'send', replay: plan.replay, exchanges: recorder.all().map(({ replay: _recipe, ...exchange }) => exchange) }
    : {
        command: 'send',
        listener: plan.listener,
        breaks: plan.breaks,
        dryRun: plan.dryRun,
        ...(expected === undefined ? {} : { expected: expected.text }),
        exchanges: recorder.all().map(({ replay: _recipe, ...exchange }) => exchange),
      };
  try {
    await writeFile(path, `${recorder.redact(JSON.stringify(document, null, 2))}\n`, 'utf8');
  } catch (error) {
    process.stderr.write(`note: could not write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
  }
}
