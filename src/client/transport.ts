/**
 * The HTTP transport: one undici Agent per client, an overall deadline per request, a bounded response
 * body, pacing and the 429 retry rule, and a recorded exchange for every attempt (success or failure).
 * Every failure leaves here as a HarnessError with a stable code.
 */
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { HarnessError } from '../errors.js';
import { DEFAULT_RETRY_AFTER_CAP_MS } from '../defaults.js';
import { within } from '../stop/within.js';
import { stopMs } from '../stop/timings.js';
import { requestedRetryAfterMs, sleep } from './rate-limit.js';
import { attempt, type AttemptContext } from './transport-attempt.js';
import type { TransportOptions, TransportRequest } from './transport-request.js';
import type { HttpResponse } from './types.js';

export interface Transport {
  send(req: TransportRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export function createTransport(options: TransportOptions): Transport {
  const ca = options.ca ? [...rootCertificates, options.ca] : undefined;
  const agent = new Agent({
    connect: {
      timeout: options.connectTimeoutMs,
      rejectUnauthorized: !options.insecureSkipVerify,
      ...(ca ? { ca } : {}),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const { recorder } = options;
  const max429 = options.max429Retries ?? 3;
  /** Aborts of the requests in flight, so close() can end them. */
  const inFlight = new Set<() => void>();
  const ctx: AttemptContext = { options, agent, inFlight };
  let closing = false;

  const retryAfterCap = options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS;

  /**
   * After a 429: how long to wait before the next attempt, or a RATE_LIMITED error when the target asks for
   * longer than the cap or than the request's timeout has left (a wait never holds a run past its bounds).
   */
  function retryWait(req: TransportRequest, response: HttpResponse, firstSentAt: number): number {
    const header = response.headers['retry-after'];
    const asked = requestedRetryAfterMs(header);
    const left = (req.timeoutMs ?? options.timeoutMs) - (Date.now() - firstSentAt);
    if (asked <= retryAfterCap && asked <= left) return asked;
    const why = asked > retryAfterCap ? `more than the ${retryAfterCap} ms the run waits at most (--retry-after-cap)` : `more than the ${Math.max(0, left)} ms the request's timeout has left`;
    const error = new HarnessError('RATE_LIMITED', `the target rate-limits ${req.method} ${recorder.redact(req.url)}: it answered 429 with Retry-After: ${recorder.redact(header ?? '')}, ${why}`, {
      hint: 'The target is throttling the harness: lower --rate-limit or --concurrency, or raise --retry-after-cap and --timeout if waiting is acceptable.',
    });
    options.onOutcome?.({ ok: false, code: error.code, message: error.message });
    throw error;
  }

  return {
    async send(req) {
      const firstSentAt = Date.now();
      for (let retry = 0; ; retry += 1) {
        await options.pacer.acquire();
        // Checked before every attempt: a 429 wait or the pacer may outlast close().
        if (closing) {
          throw new HarnessError('USAGE', `the client is closed: ${req.method} ${recorder.redact(req.url)} was not sent`, {
            hint: 'Create a new client, or close it only after the last request.',
          });
        }
        options.guard?.(req);
        const response = await attempt(ctx, req);
        if (response.status !== 429) options.onOutcome?.({ ok: true, status: response.status });
        if (response.status !== 429 || req.retryOn429 === false) return response;
        if (retry >= max429) {
          options.onOutcome?.({ ok: false, code: 'RATE_LIMITED', message: `${req.method} ${recorder.redact(req.url)} was answered 429 ${retry + 1} times` });
          return response;
        }
        await sleep(retryWait(req, response, firstSentAt));
      }
    },
    async close() {
      closing = true;
      // Let answers in flight finish for a moment, then cut them: close() must not hang on a hung target.
      // The grace timer is cleared once the agent has closed: left running it held the process open for its
      // full second after every command's work was done (850 ms of a one-check run's 2 s).
      const closed = agent.close().then(() => true, () => true);
      const finished = await within(closed, stopMs('clientCloseGrace'), () => false);
      if (!finished) {
        for (const cancel of inFlight) cancel();
        await closed;
      }
    },
  };
}
