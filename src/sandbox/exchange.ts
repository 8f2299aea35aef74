// src/sandbox/exchange.ts
/**
 * One request the sandbox answered, as the sandbox's wrapper around the reference handler saw it: what the
 * console line, the request log and the inspector page read. Raw: nothing here is redacted; whoever shows
 * it redacts (src/sandbox/redact-exchange.ts) — and nothing may keep it beyond the request log's ring.
 */
export interface SandboxExchange {
  /** epoch ms when the request arrived */
  readonly at: number;
  readonly method: string;
  /** the request target as received (path and query) */
  readonly target: string;
  /** the webhook listener ID when the path is /api/v1/webhooks/incoming/{listener_id} */
  readonly listener?: string;
  readonly requestHeaders: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly requestBody: Uint8Array;
  readonly status: number;
  /** the answer's JSON body as sent (after the diagnosis was written into it) */
  readonly responseBody: string;
  /** set on a refused request (status >= 400) */
  readonly diagnosis?: Diagnosis;
  readonly durationMs: number;
}

export interface Diagnosis {
  /** stable code from the mistake catalogue (`serve --list-mistakes`), or 'unexplained' */
  readonly mistake: string;
  /** the one sentence written into the answer's error_description */
  readonly sentence: string;
}

export type ExchangeObserver = (exchange: SandboxExchange) => void;
