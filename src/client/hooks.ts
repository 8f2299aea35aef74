/**
 * The test hooks of test-hooks.md over the client's transport, and the clock every timestamp and JWT
 * `exp` is built from: the target's (hook) when it answers, else local time.
 */
import { HarnessError, isHarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import type { Transport } from './transport.js';
import type { HookRun, HttpResponse, TestHooks } from './types.js';

/** How long a read of the target's clock is reused (as an offset to local time) before asking again. */
/** 256 MiB: thousands of suite runs' worth of runs, still bounded. */
const RUNS_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export const CLOCK_CACHE_MS = 5_000;

function hookBroken(what: string, response: HttpResponse | undefined, detail: string): HarnessError {
  const status = response ? ` answered ${response.status}` : '';
  return new HarnessError('HOOK_BROKEN', `the test hook ${what}${status}: ${detail}`, {
    hint: 'The target offers hooks (profile hooks.baseUrl) but this one does not work as test-hooks.md describes; fix it or remove hooks from the profile.',
    field: 'hooks',
  });
}

function readNow(response: HttpResponse, what: string): number {
  const body = response.json() as { now?: unknown } | undefined;
  const now = body?.now;
  if (response.status !== 200 || typeof now !== 'number' || !Number.isFinite(now)) {
    throw hookBroken(what, response, 'expected 200 {"now": <Unix seconds>}');
  }
  return now;
}

export interface HooksImpl extends TestHooks {
  /** Called with every fresh clock reading so the shared clock can update its offset. */
  onClock?: (now: number) => void;
}

export function createHooks(profile: ResolvedProfile, transport: Transport): HooksImpl | undefined {
  if (!profile.hooks) return undefined;
  const base = profile.hooks.baseUrl.replace(/\/+$/, '');
  const token = profile.hooks.token;
  const headers = (json: boolean): Record<string, string> => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
    accept: 'application/json',
  });
  let probed: Promise<{ clock: boolean; runs: boolean }> | undefined;

  const hooks: HooksImpl = {
    async now() {
      const response = await transport.send({ method: 'GET', url: `${base}/clock`, headers: headers(false), label: 'hooks: GET /clock' });
      const now = readNow(response, 'GET /clock');
      hooks.onClock?.(now);
      return now;
    },
    async advance(seconds) {
      if (!(seconds > 0) || !Number.isFinite(seconds)) {
        throw new HarnessError('USAGE', `the clock can only move forward: advance(${seconds}) is not a positive number of seconds`);
      }
      const response = await transport.send({
        method: 'POST',
        url: `${base}/clock`,
        headers: headers(true),
        body: JSON.stringify({ advanceSeconds: seconds }),
        label: `hooks: advance the clock ${seconds} s`,
        retryOn429: false,
      });
      const now = readNow(response, 'POST /clock');
      hooks.onClock?.(now);
      return now;
    },
    async runs(listenerId) {
      const response = await transport.send({
        method: 'GET',
        url: `${base}/runs?listenerId=${encodeURIComponent(listenerId)}`,
        headers: headers(false),
        label: `hooks: runs of ${listenerId}`,
        // The hook returns every run of the listener; on a long-lived target that grows with each run of the
        // suites (64 KB contexts included), so it gets a far larger bound than ordinary API answers.
        maxResponseBytes: RUNS_MAX_RESPONSE_BYTES,
      });
      const body = response.json() as { runs?: unknown } | undefined;
      if (response.status !== 200 || !Array.isArray(body?.runs)) {
        throw hookBroken('GET /runs', response, 'expected 200 {"runs": [...]}');
      }
      return body.runs.map((run: unknown): HookRun => {
        const r = (run ?? {}) as Record<string, unknown>;
        if (typeof r.eventId !== 'string' || typeof r.at !== 'number') {
          throw hookBroken('GET /runs', response, 'each run needs "eventId" (string), "context" and "at" (number)');
        }
        return { eventId: r.eventId, context: r.context, at: r.at };
      });
    },
    probe() {
      probed ??= (async () => {
        const answers = async (call: () => Promise<unknown>): Promise<boolean> => {
          try {
            await call();
            return true;
          } catch (error) {
            // A hook that is missing or broken is reported as not offered; the run then skips what needs it.
            if (isHarnessError(error)) return false;
            throw error;
          }
        };
        const clock = await answers(() => hooks.now());
        const listener =
          profile.webhooks.hmac?.listenerId ?? profile.webhooks.jwt?.listenerId ?? profile.webhooks.hmacSecond?.listenerId ?? 'probe';
        const runs = await answers(() => hooks.runs(listener));
        return { clock, runs };
      })();
      return probed;
    },
  };
  return hooks;
}

/**
 * Unix seconds as the target sees them. The hook is read at most every CLOCK_CACHE_MS and the offset to
 * local time reused in between; `invalidate` (after an advance) forces a fresh read. When the clock hook
 * does not answer, local time is used from then on.
 */
export class TargetClock {
  private offsetSeconds = 0;
  private readAt = -Infinity;
  private hookWorks: boolean | undefined;
  private pending: Promise<number> | undefined;

  constructor(private readonly hooks: TestHooks | undefined) {}

  /** Records a reading taken elsewhere (hooks.now, hooks.advance). */
  observe(now: number): void {
    this.offsetSeconds = now - Date.now() / 1000;
    this.readAt = Date.now();
    this.hookWorks = true;
  }

  invalidate(): void {
    this.readAt = -Infinity;
  }

  async now(): Promise<number> {
    if (!this.hooks || this.hookWorks === false) return Date.now() / 1000;
    if (Date.now() - this.readAt < CLOCK_CACHE_MS) return Date.now() / 1000 + this.offsetSeconds;
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async read(): Promise<number> {
    try {
      const now = await (this.hooks as TestHooks).now();
      this.observe(now);
      return now;
    } catch (error) {
      if (!isHarnessError(error)) throw error;
      // The first read decides: a clock hook that never answered is treated as not offered. Once it has
      // answered, a failure is a broken hook and must surface.
      if (this.hookWorks === undefined) {
        this.hookWorks = false;
        return Date.now() / 1000;
      }
      throw error;
    }
  }
}
