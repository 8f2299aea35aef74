/**
 * One answer for everything. A target that answers every request alike (404 from a wrong base URL or path
 * prefix, 502 from a proxy whose upstream is down, 401 from a gateway or wrong credentials, nothing at all)
 * is not a service with 150 independent defects: it is a misconfigured run. The engine counts the answer of
 * every request the suites' client sends (the run channel's request outcomes, run-channel.ts). When nearly
 * every one got the same non-2xx answer, the run says so in the first lines of every report, with what to
 * check, and the verdict is a harness error (UNIFORM_ANSWER, exit 2) instead of "not conformant".
 *
 * The console wants that line right after its header, before any group line: the group events are held
 * (HoldingEmitter) until the first WINDOW requests have answered (or HOLD_MS after the first answer,
 * HOLD_FROM_START_MS after the start, or the end of the run), and if those answers are uniform the notice
 * goes out first. The verdict itself is decided on the whole run.
 */
import type { RequestOutcome } from '../client/types.js';
import { Emitter, type Arg } from './emitter.js';
import type { ReporterEvent, UniformAnswer, Verdict } from './types.js';

/** Requests answered before the first look, and the fewest a run needs for a uniform verdict. */
export const UNIFORM_WINDOW = 30;
/** Share of the requests that one answer must have. */
export const UNIFORM_SHARE = 0.95;
/**
 * Longest the group lines wait for the first look once the first request answered (a slow target still
 * shows progress), and at most from the start of the run (the suite worker may take long to start).
 */
export const HOLD_MS = 10_000;
export const HOLD_FROM_START_MS = 30_000;

/** What to check for an answer; every hint names the usual suspects after the likeliest one. */
function hintFor(answer: string): string {
  const status = Number(answer);
  const likeliest = !Number.isInteger(status)
    ? 'the target is not answering: check that it has started and listens at the base URL'
    : status === 404
      ? 'nothing is served at the paths the harness uses: check the base URL and its path prefix (/auth/v1/token and /api/v1 hang from it)'
      : status === 401 || status === 403
        ? 'even valid requests are refused: check the credentials in the profile, and whether a proxy or gateway in front demands its own authentication'
        : status === 502 || status === 503 || status === 504
          ? 'a proxy or gateway in front answers for the target: check that the target behind it has started and that the proxy routes to it'
          : status >= 300 && status < 400
            ? 'every request is redirected: check the base URL\'s scheme, host and path prefix'
            : status >= 500
              ? 'the target fails on every request: check its startup and its logs'
              : 'the target answers every request alike: check that the base URL points at the service and not at another application';
  return `${likeliest}. Also check: the base URL and path prefix, a proxy in front, the credentials, the target's startup.`;
}

/**
 * The uniform answer among `counts` (answer → requests), or undefined when the answers vary. `first`: the
 * counts are the run's first requests only (the wording says so).
 */
export function uniformAnswerOf(counts: ReadonlyMap<string, number>, first = false): UniformAnswer | undefined {
  let requests = 0;
  let top: [string, number] | undefined;
  for (const entry of counts) {
    requests += entry[1];
    if (!top || entry[1] > top[1]) top = entry;
  }
  if (!top || requests < UNIFORM_WINDOW || top[1] < requests * UNIFORM_SHARE) return undefined;
  const [answer, count] = top;
  // A target that accepts nearly everything is not misconfigured; its failures are its own.
  if (/^2\d\d$/.test(answer)) return undefined;
  const what = Number.isInteger(Number(answer)) ? answer : `no answer (${answer})`;
  const every = count === requests ? 'every' : 'nearly every';
  const message = first ? `${every} one of the first ${requests} requests got ${what} (${count} of ${requests})` : `${every} request of the run got ${what} (${count} of ${requests})`;
  return { answer, count, requests, message, hint: hintFor(answer) };
}

/** The verdict of a run whose requests all got one answer. */
export function uniformVerdict(answer: UniformAnswer): Verdict {
  return { status: 'error', exitCode: 2, code: 'UNIFORM_ANSWER', reason: `${answer.message}: the target or the profile is misconfigured, so no check result means anything` };
}

/** Counts the answers of a run's requests; says once whether the first WINDOW were uniform. */
export class UniformAnswerWatch {
  private readonly counts = new Map<string, number>();
  private looked = false;

  /** `onFirstLook`: called once, with the uniform answer of the first requests or undefined. */
  constructor(private readonly onFirstLook: (answer: UniformAnswer | undefined) => void) {}

  outcome(outcome: RequestOutcome): void {
    const answer = outcome.ok ? (outcome.status === undefined ? undefined : String(outcome.status)) : outcome.code;
    if (answer === undefined) return;
    if (this.counts.size === 0) setTimeout(() => this.look(), HOLD_MS).unref();
    this.counts.set(answer, (this.counts.get(answer) ?? 0) + 1);
    let requests = 0;
    for (const n of this.counts.values()) requests += n;
    if (requests >= UNIFORM_WINDOW) this.look();
  }

  /** The first look now, if it has not happened (the run ended, or held output waited long enough). */
  look(): void {
    if (this.looked) return;
    this.looked = true;
    this.onFirstLook(uniformAnswerOf(this.counts, true));
  }

  /** The whole run's uniform answer, if any. */
  finish(): UniformAnswer | undefined {
    this.look();
    return uniformAnswerOf(this.counts);
  }
}

const HELD: ReadonlySet<ReporterEvent> = new Set(['onGroupStart', 'onCheckEnd', 'onGroupEnd', 'onHeartbeat']);

/** An emitter that holds the progress events until `release()`, so a notice can go out before them. */
export class HoldingEmitter extends Emitter {
  private held: Array<() => void> | undefined = [];

  override emit<M extends ReporterEvent>(method: M, arg: Arg<M>): void {
    if (this.held && HELD.has(method)) this.held.push(() => super.emit(method, arg));
    else super.emit(method, arg);
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const emit of held) emit();
  }
}
