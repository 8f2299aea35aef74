/**
 * The load transport's unmeasured request (priming, warm-up), bounded like every other: one timer for the
 * whole exchange, a cap on the body it reads, and the run's signal (Ctrl-C). A target that hangs, drips or
 * streams without end fails it with a HarnessError instead of holding the load run.
 */
import { Pool } from 'undici';
import { HarnessError } from '../errors.js';
import { refused } from './firewall.js';
import { responseTooLarge, toTransportError } from './transport-errors.js';

/** A request of the load driver (the same shape as src/load's LoadRequest). */
export interface PrimingRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface PrimingClientOptions {
  connectTimeoutMs: number;
  timeoutMs: number;
  insecureSkipVerify: boolean;
  ca?: string[];
}

/** A small undici pool for the load run's unmeasured requests; opened on first use. */
export interface PrimingClient {
  fetch(req: PrimingRequest, options: BoundedFetchOptions): Promise<{ status: number; body: Buffer }>;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export function createPrimingClient(origin: string, options: PrimingClientOptions): PrimingClient {
  let pool: Pool | undefined;
  return {
    fetch(req, fetchOptions) {
      pool ??= new Pool(origin, {
        connections: 4,
        connect: { timeout: options.connectTimeoutMs, rejectUnauthorized: !options.insecureSkipVerify, ...(options.ca ? { ca: options.ca } : {}) },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      return boundedFetch(pool, req, fetchOptions);
    },
    close: async () => pool?.close(),
    destroy: async () => pool?.destroy(),
  };
}

export interface BoundedFetchOptions {
  origin: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * The priming client's one way out (docs/architecture.md, the load driver's door): a path on the pool's
 * origin, sent as GET, or as POST to the token endpoint or a webhook listener (what the load sources send);
 * anything else is REQUEST_REFUSED, never sent.
 */
function primingProblem(req: PrimingRequest): string | undefined {
  const method = String(req.method).toUpperCase();
  if (typeof req.path !== 'string' || !req.path.startsWith('/') || req.path.startsWith('//')) return 'its path is not a path on the load run\'s origin';
  if (method === 'GET') return undefined;
  const path = req.path.split(/[?#]/)[0]!;
  if (method === 'POST' && (/\/auth\/v1\/token$/.test(path) || /\/api\/v1\/webhooks\/incoming\/[^/]+$/.test(path))) return undefined;
  return method === 'POST' ? 'a POST the load driver makes goes to the token endpoint or a webhook listener only' : `${method} is never sent`;
}

async function boundedFetch(pool: Pool, req: PrimingRequest, options: BoundedFetchOptions): Promise<{ status: number; body: Buffer }> {
  const url = options.origin + req.path;
  const problem = primingProblem(req);
  if (problem !== undefined) throw refused(`${String(req.method).toUpperCase()} ${String(req.path).split(/[?#]/)[0]!.slice(0, 200)}`, problem);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const fail = (error: unknown): never => {
    if (options.signal?.aborted && !timedOut) throw new HarnessError('INTERRUPTED', `${req.method} ${url} was stopped (interrupted)`);
    throw toTransportError(error, { method: req.method, url, timeoutMs: options.timeoutMs, connectTimeoutMs: options.connectTimeoutMs, timedOut });
  };
  try {
    if (options.signal?.aborted) fail(new Error('aborted'));
    const response = await pool
      .request({ path: req.path, method: req.method, headers: req.headers, body: req.body ?? null, signal: controller.signal })
      .catch(fail);
    const chunks: Buffer[] = [];
    let received = 0;
    try {
      for await (const chunk of response.body) {
        received += (chunk as Buffer).length;
        if (received > options.maxBytes) {
          // Stop reading: a priming answer that streams without end must not fill the memory.
          response.body.on('error', () => {});
          response.body.destroy();
          throw responseTooLarge(req.method, url, options.maxBytes);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      fail(error);
    }
    return { status: response.statusCode, body: Buffer.concat(chunks) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
