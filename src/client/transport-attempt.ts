/**
 * One attempt of a request through the transport's undici Agent: headers as undici sends them, an overall
 * deadline, the answer read within its bound, and the exchange recorded whether it succeeded or failed.
 * The transport (transport.ts) decides about retries and pacing around it.
 */
import type { Agent, Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { HarnessError } from '../errors.js';
import { responseTooLarge, toTransportError } from './transport-errors.js';
import type { HttpResponse, RecordedExchange } from './types.js';
import type { TransportOptions, TransportRequest } from './transport-request.js';

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

export interface AttemptContext {
  options: TransportOptions;
  agent: Agent;
  inFlight: Set<() => void>;
}

/** One attempt of a request: sent, its answer read within the bounds, recorded (also when it failed). */
export async function attempt(ctx: AttemptContext, req: TransportRequest): Promise<HttpResponse> {
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
      ...(req.replay ? { replay: req.replay } : {}),
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
