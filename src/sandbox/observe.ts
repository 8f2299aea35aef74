/**
 * The outermost wrapper of the sandbox's handler: every observer (the console line, the inspector's log)
 * sees each answered request once, built from references the wrapper already holds (no copy, no redaction
 * here: whoever shows an exchange redacts it). The diagnosis is read back from a refused answer's JSON
 * body, where the diagnosing wrapper inside wrote it, so observers see exactly what the client got.
 *
 * The smallest version of the shared contract (src/sandbox/exchange.ts); the inspector's branch owns this
 * file and its version wins at the merge.
 */
import type { ReferenceHandler } from '../reference/types.js';
import { WEBHOOK_PATH_PREFIX as WEBHOOK_PREFIX } from '../reference/webhooks.js';
import type { Diagnosis, ExchangeObserver, SandboxExchange } from './exchange.js';

export function observeHandler(inner: ReferenceHandler, observers: () => readonly ExchangeObserver[]): ReferenceHandler {
  return async (request) => {
    const started = performance.now();
    const response = await inner(request);
    const watching = observers();
    if (watching.length === 0) return response;
    const { status } = response;
    const responseBody = typeof response.body === 'string' ? response.body : response.body.toString('utf8');
    // One object literal of a fixed shape (no conditional spreads): this runs for every request.
    const exchange: SandboxExchange = {
      at: Math.round(performance.timeOrigin + started),
      method: request.method,
      target: request.url,
      listener: listenerOf(request.url),
      requestHeaders: request.headers,
      requestBody: request.body,
      status,
      responseBody,
      diagnosis: status >= 400 ? diagnosisOf(responseBody) : undefined,
      durationMs: performance.now() - started,
    };
    for (const observer of watching) observer(exchange);
    return response;
  };
}

function listenerOf(target: string): string | undefined {
  if (!target.startsWith(WEBHOOK_PREFIX)) return undefined;
  const rest = target.slice(WEBHOOK_PREFIX.length);
  const end = rest.search(/[/?#]/);
  const id = end < 0 ? rest : rest.slice(0, end);
  return id === '' ? undefined : id;
}

/** `mistake` and `error_description` of a refused answer's JSON body; absent `mistake`: no diagnosis. */
function diagnosisOf(body: string): Diagnosis | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { mistake, error_description: sentence } = parsed as Record<string, unknown>;
    if (typeof mistake !== 'string') return undefined;
    return { mistake, sentence: typeof sentence === 'string' ? sentence : '' };
  } catch {
    return undefined;
  }
}
