/**
 * The HTTP transport: one undici Agent per client, an overall deadline per request, a bounded response
 * body, pacing and the 429 retry rule, and a recorded exchange for every attempt (success or failure).
 * Every failure leaves here as a HarnessError with a stable code.
 */
import { rootCertificates } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { HarnessError } from '../errors.js';
import type { InternalRecorder } from './recorder.js';
import { DEFAULT_RETRY_AFTER_CAP_MS } from '../defaults.js';
import { requestedRetryAfterMs, sleep, type Pacer } from './rate-limit.js';
import { responseTooLarge, toTransportError } from './transport-errors.js';
import type { HttpResponse, RecordedExchange, RequestOutcome } from './types.js';

export interface TransportOptions {
  timeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** PEM bundle trusted besides the system store. */
  ca?: string;
  insecureSkipVerify: boolean;
  pacer: Pacer;
  recorder: InternalRecorder;
  /** Retries after a 429 (each waits for its Retry-After). Default 3. */
  max429Retries?: number;
  /** Longest Retry-After honoured; default DEFAULT_RETRY_AFTER_CAP_MS (the same as `run`'s). */
  retryAfterCapMs?: number;
  onOutcome?: (outcome: RequestOutcome) => void;
}

export interface TransportRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  label?: string;
  timeoutMs?: number;
  /** Default true: wait for Retry-After and send again on 429. */
  retryOn429?: boolean;
  /** Overrides the client's response bound for this request (the runs hook lists every run ever made). */
  maxResponseBytes?: number;
  /** Further lines of these headers, sent after the one in `headers` (repeated-header checks). */
  repeatedHeaders?: Record<string, string[]>;
  /** Values made for this request only (its HMAC signature): redacted from its exchange. */
  ephemeral?: readonly string[];
  /** Credentials inside the answer (an access token) to register with the recorder before it stores it. */
  secretsIn?: (status: number, body: Buffer) => string[];
}

export interface Transport {
  send(req: TransportRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/**
 * The headers as undici sends them: a name with further lines becomes an array (one header line per
 * value). `recorded` gets those lines joined with `, `, which is how a recipient may combine them
 * (RFC 7230 §3.2.2).
 */
function withRepeatedHeaders(recorded: Record<string, string>, repeated: Record<string, string[]> | undefined): Record<string, string | string[]> {
  const wire: Record<string, string | string[]> = { ...recorded };
  for (const [name, extra] of Object.entries(repeated ?? {})) {
    const key = Object.keys(wire).find((existing) => existing.toLowerCase() === name.toLowerCase()) ?? name.toLowerCase();
    const first = recorded[key];
    const lines = [...(first === undefined ? [] : [first]), ...extra];
    wire[key] = lines;
    recorded[key] = lines.join(', ');
  }
  return wire;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

export function makeHttpResponse(status: number, headers: Record<string, string>, body: Buffer, exchange: RecordedExchange): HttpResponse {
  let parsed: { value: unknown } | undefined;
  return {
    status,
    headers,
    body,
    exchange,
    text: () => body.toString('utf8'),
    json: () => {
      if (!parsed) {
        try {
          parsed = { value: body.length === 0 ? undefined : (JSON.parse(body.toString('utf8')) as unknown) };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
}

interface AttemptContext {
  options: TransportOptions;
  agent: Agent;
  inFlight: Set<() => void>;
}

/** One attempt of a request: sent, its answer read within the bounds, recorded (also when it failed). */
async function attempt(ctx: AttemptContext, req: TransportRequest): Promise<HttpResponse> {
  const { options, agent, inFlight } = ctx;
  const { recorder } = options;
  const timeoutMs = req.timeoutMs ?? options.timeoutMs;
  const bodyBuffer = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const sentHeaders = { ...req.headers };
  if (bodyBuffer !== undefined && !Object.keys(sentHeaders).some((name) => name.toLowerCase() === 'content-length')) {
    sentHeaders['content-length'] = String(bodyBuffer.length);
  }
  const wireHeaders = withRepeatedHeaders(sentHeaders, req.repeatedHeaders);
  const startedAt = Date.now();
  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  let cancelled = false;
  const cancel = (): void => {
    cancelled = true;
    controller.abort();
  };
  inFlight.add(cancel);
  let status: number | undefined;
  let headers: Record<string, string> = {};
  const chunks: Buffer[] = [];
  let received = 0;

  const record = (error?: HarnessError, body?: Buffer): RecordedExchange =>
    recorder.record({
      label: req.label,
      request: { method: req.method, url: req.url, headers: sentHeaders, body: bodyBuffer },
      ...(status === undefined ? {} : { response: { status, headers, body: body ?? Buffer.concat(chunks), bodyBytes: received } }),
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
      startedAt,
      durationMs: performance.now() - started,
      ...(req.ephemeral ? { ephemeral: req.ephemeral } : {}),
    });

  const fail = (error: unknown): never => {
    const harnessError = toTransportError(error, {
      method: req.method,
      url: recorder.redact(req.url),
      timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      timedOut,
      closed: cancelled,
    });
    record(harnessError);
    options.onOutcome?.({ ok: false, code: harnessError.code, message: harnessError.message });
    throw harnessError;
  };

  try {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch (error) {
      return fail(Object.assign(new Error('invalid URL'), { code: 'ERR_INVALID_URL', cause: error }));
    }
    const response = await agent
      .request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method as Parameters<Agent['request']>[0]['method'],
        headers: wireHeaders,
        body: bodyBuffer ?? null,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      })
      .catch(fail);
    status = response.statusCode;
    headers = flattenHeaders(response.headers);
    const limit = req.maxResponseBytes ?? options.maxResponseBytes;
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      // Destroying an unread undici body emits an abort error; it is expected here, so swallow it.
      response.body.on('error', () => {});
      response.body.destroy();
      received = declared;
      return fail(responseTooLarge(req.method, recorder.redact(req.url), limit));
    }
    let tooLarge = false;
    try {
      tooLarge = await readBounded(response.body, (buf) => {
        received += buf.length;
        if (received > limit) return false;
        chunks.push(buf);
        return true;
      });
    } catch (error) {
      return fail(error);
    }
    if (tooLarge) return fail(responseTooLarge(req.method, recorder.redact(req.url), limit));
    const body = Buffer.concat(chunks);
    if (req.secretsIn) {
      for (const secret of req.secretsIn(status, body)) recorder.addSecret(secret);
    }
    const exchange = record(undefined, body);
    return makeHttpResponse(status, headers, body, exchange);
  } finally {
    clearTimeout(timer);
    inFlight.delete(cancel);
  }
}

/**
 * Reads a response body chunk by chunk; `take` keeps a chunk or says it passed the bound (false). Past the
 * bound the body is destroyed and true returned: a target that streams without end must not fill the
 * harness's memory.
 */
async function readBounded(body: Dispatcher.ResponseData['body'], take: (chunk: Buffer) => boolean): Promise<boolean> {
  for await (const chunk of body) {
    if (!take(chunk as Buffer)) {
      // Destroying an unread undici body emits an abort error; it is expected here, so swallow it.
      body.on('error', () => {});
      body.destroy();
      return true;
    }
  }
  return false;
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
      const closed = agent.close().then(() => true, () => true);
      if (!(await Promise.race([closed, sleep(1000).then(() => false)]))) {
        for (const cancel of inFlight) cancel();
        await closed;
      }
    },
  };
}
