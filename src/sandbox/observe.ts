/**
 * observeHandler: the outermost wrapper of the sandbox's handler. Once per answered request it hands every
 * observer (the request log, the console line) one {@link SandboxExchange}, built from the references the
 * wrapper already holds: the request's headers and body, the answer's body. Nothing is copied, decoded,
 * parsed or redacted here, because a valid request must cost (almost) nothing more than without it: the
 * answer's text and its diagnosis are worked out the first time an observer reads them, and the diagnosis
 * only for a refused answer.
 */
import { performance } from 'node:perf_hooks';
import type { ReferenceHandler, ReferenceRequest, ReferenceResponse } from '../reference/types.js';
import { onAnswer } from '../reference/http.js';
import { WEBHOOK_PATH_PREFIX } from '../reference/webhooks.js';
import type { Diagnosis, ExchangeObserver, SandboxExchange } from './exchange.js';

/**
 * `observers` is read per request (a function, not a list), so an observer added after the sandbox
 * started (the page's request log is made once the URL is known) sees every later request.
 */
export function observeHandler(inner: ReferenceHandler, observers: () => readonly ExchangeObserver[]): ReferenceHandler {
  // No promise of its own: a synchronous answer is observed and handed back at once, a later one in one then().
  return (request) => {
    const at = Date.now();
    const started = performance.now();
    return onAnswer(inner(request), (response) => {
      const watching = observers();
      if (watching.length === 0) return response;
      const exchange = new ObservedExchange(at, request, response, performance.now() - started);
      for (const observer of watching) {
        // An observer's bug must not turn an answer the reference gave into a failed connection.
        try {
          observer(exchange);
        } catch {
          // Nothing to say to the client; the observer's own tests hold it to its contract.
        }
      }
      return response;
    });
  };
}

/** The exchange, read lazily from the request and the answer it keeps (by reference). */
class ObservedExchange implements SandboxExchange {
  readonly method: string;
  readonly target: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: Uint8Array;
  readonly status: number;
  #body: Buffer | string;
  #text: string | undefined;
  #diagnosis: Diagnosis | null | undefined;

  constructor(
    readonly at: number,
    request: ReferenceRequest,
    response: ReferenceResponse,
    readonly durationMs: number,
  ) {
    this.method = request.method;
    this.target = request.url;
    this.requestHeaders = request.headers;
    this.requestBody = request.body;
    this.status = response.status;
    this.#body = response.body;
  }

  get listener(): string | undefined {
    return listenerOf(this.target);
  }

  get responseBody(): string {
    this.#text ??= typeof this.#body === 'string' ? this.#body : this.#body.toString('utf8');
    return this.#text;
  }

  get diagnosis(): Diagnosis | undefined {
    if (this.#diagnosis === undefined) this.#diagnosis = this.status >= 400 ? diagnosisOf(this.responseBody) : null;
    return this.#diagnosis ?? undefined;
  }
}

/** The listener ID of a webhook target (`/api/v1/webhooks/incoming/{id}`, one segment), else undefined. */
export function listenerOf(target: string): string | undefined {
  if (!target.startsWith(WEBHOOK_PATH_PREFIX)) return undefined;
  const rest = target.slice(WEBHOOK_PATH_PREFIX.length).split('?', 1)[0] as string;
  if (rest === '' || rest.includes('/')) return undefined;
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/**
 * The diagnosis a refused answer carries: its `mistake` and `error_description` (written by the
 * diagnosing wrapper, src/sandbox/diagnose*.ts). An answer without a `mistake` carries none.
 */
export function diagnosisOf(body: string): Diagnosis | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { mistake, error_description: sentence } = parsed as { mistake?: unknown; error_description?: unknown };
  return typeof mistake === 'string' && typeof sentence === 'string' ? { mistake, sentence } : null;
}
