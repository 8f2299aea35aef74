/**
 * The exchange recorder: every request and answer, redacted before it is stored, in order, bounded.
 * Failure reports show these records, so nothing secret may ever reach the array.
 */
import type { ExchangeRecorder, RecordedExchange } from './types.js';
import { CREDENTIAL_HEADERS, OPAQUE_HEADERS, REDACTED, RecentLiterals, Redactor, replaceShapes, shapesLongestFirst } from './redact.js';

/**
 * One-request values remembered for the texts a check builds after the exchange (failure messages, the
 * comparison of a header it sent). The recorder is the run's, shared by every check in flight, and the
 * one-at-a-time groups now run beside the others: IDEM-X01 alone sends 300 webhooks, each with its own
 * signature, and at 64 a signature could leave the set between a check's request and its next line (seen
 * once: WH-HMAC-X04 compared its sent header with a redaction that no longer knew it). Values join and leave
 * the index one at a time (RecentLiterals), so a larger bound costs memory only (about 0.7 MB of shapes).
 */
const RECENT_EPHEMERAL = 1024;

export interface RecorderOptions {
  /** Values redacted for the recorder's life (the profile's `secrets`). */
  secrets?: Iterable<string>;
  /** Body bytes kept per exchange; default 4096. */
  recordBodyBytes?: number;
  /** Exchanges kept; older ones are dropped (sequence numbers keep counting). Default 10 000. */
  maxExchanges?: number;
  /**
   * Told each new lasting secret (an access token obtained, a secret handed in): the run shares them with
   * every other worker and the reporters, which could otherwise meet them echoed by the target.
   */
  onSecret?: (value: string) => void;
}

/** What the transport hands over: raw values, redacted here. */
export interface RawExchange {
  label?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: Buffer };
  response?: { status: number; headers: Record<string, string>; body?: Buffer; bodyBytes?: number };
  error?: RecordedExchange['error'];
  startedAt: number;
  durationMs: number;
  /** Values made for this request only (its HMAC signature): redacted from this exchange in every shape. */
  ephemeral?: readonly string[];
  /** Its recipe (replay-recipe.ts): portable JSON that names credentials instead of holding them. */
  replay?: RecordedExchange['replay'];
}

/** The recorder the client implementation needs beyond the public contract. */
export interface InternalRecorder extends ExchangeRecorder {
  record(raw: RawExchange): RecordedExchange;
  /** Adds a value redacted for the recorder's life (not subject to the bounded most-recent set). */
  addFixedSecret(value: string): void;
  /** Adds a one-request value (an HMAC signature) to the recent ones `redact` still applies. */
  addEphemeralSecret(value: string): void;
  /** Whether `redact` would change `text` (cheaper than comparing: it stops at the first secret). */
  carriesSecret(text: string): boolean;
  /** Adds a lasting secret learned elsewhere (another worker) without announcing it again. */
  learnSecret(value: string): void;
  readonly recordBodyBytes: number;
}

export function createRecorder(options: RecorderOptions = {}): InternalRecorder {
  const redactor = new Redactor(options.secrets ?? []);
  const bodyBound = options.recordBodyBytes ?? 4096;
  const maxExchanges = options.maxExchanges ?? 10_000;
  let exchanges: RecordedExchange[] = [];
  let nextSeq = 1;

  const recent = new RecentLiterals(RECENT_EPHEMERAL);
  const redactText = (text: string): string => recent.replaceAll(redactor.redact(text));

  const redactHeaders = (headers: Record<string, string>, redact: (text: string) => string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (CREDENTIAL_HEADERS.has(lower)) out[name] = redactor.redactCredentialHeader(redact(value));
      else if (OPAQUE_HEADERS.has(lower)) out[name] = REDACTED;
      else out[name] = redact(value);
    }
    return out;
  };

  /** `body` is the window deferredExchange kept: the bound and past it the longest secret shape. */
  const redactBody = (body: Buffer | undefined, redact: (text: string) => string, bodyBytes: number): { body?: string; bodyBytes: number; bodyTruncated: boolean } => {
    if (body === undefined) return { bodyBytes, bodyTruncated: false };
    const redacted = Buffer.from(redact(body.toString('utf8')), 'utf8');
    const truncated = bodyBytes > bodyBound || redacted.length > bodyBound;
    const kept = redacted.subarray(0, bodyBound).toString('utf8').replace(/\uFFFD+$/, '');
    return { body: kept, bodyBytes, bodyTruncated: truncated };
  };

  const recorder: InternalRecorder = {
    recordBodyBytes: bodyBound,
    addSecret: (value) => {
      if (redactor.add(value)) options.onSecret?.(value);
    },
    addFixedSecret: (value) => {
      if (redactor.addFixed(value)) options.onSecret?.(value);
    },
    addEphemeralSecret: (value) => {
      recent.add(value);
    },
    learnSecret: (value) => {
      redactor.addFixed(value);
    },
    redact: (text) => redactText(text),
    carriesSecret: (text) => redactor.changes(text) || recent.occursIn(text),
    all: () => exchanges,
    mark: () => nextSeq - 1,
    since: (mark) => {
      // Sequence numbers are contiguous, so the start index follows from the first stored one.
      const first = exchanges[0]?.seq ?? nextSeq;
      return exchanges.slice(Math.max(0, mark + 1 - first));
    },
    clear: () => {
      exchanges = [];
    },
    record(raw) {
      const exchange = deferredExchange(nextSeq, raw, redactor.pinned(), bodyBound + redactor.longestShape() * 4 + 64, (kept, pinned, own) => {
        const redact = own.length === 0 ? pinned : (text: string) => replaceShapes(pinned(text), own);
        return {
          ...(kept.label === undefined ? {} : { label: redact(kept.label) }),
          request: {
            method: kept.request.method,
            url: redact(kept.request.url),
            headers: redactHeaders(kept.request.headers, redact),
            ...redactBody(kept.request.body, redact, kept.request.bodyBytes),
          },
          ...(kept.response === undefined
            ? {}
            : {
                response: {
                  status: kept.response.status,
                  headers: redactHeaders(kept.response.headers, redact),
                  ...redactBody(kept.response.body, redact, kept.response.bodyBytes),
                },
              }),
          ...(kept.error === undefined ? {} : { error: { code: kept.error.code, message: redact(kept.error.message) } }),
        };
      });
      nextSeq += 1;
      exchanges.push(exchange);
      // Trim in batches so a long run does not copy the whole array on every request.
      if (exchanges.length > maxExchanges + Math.max(1, maxExchanges >> 3)) {
        exchanges = exchanges.slice(exchanges.length - maxExchanges);
      }
      return exchange;
    },
  };
  return recorder;
}

/** The recorder the client uses: the given one (when it is ours) or a fresh one. */
export function isInternalRecorder(value: ExchangeRecorder): value is InternalRecorder {
  return typeof (value as Partial<InternalRecorder>).record === 'function';
}

/** What the recorder keeps of a raw exchange until it is read: the body windows, and each body's whole size. */
interface KeptExchange {
  label?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: Buffer; bodyBytes: number };
  response?: { status: number; headers: Record<string, string>; body?: Buffer; bodyBytes: number };
  error?: RecordedExchange['error'];
}

/** The parts of a RecordedExchange that hold text. */
type RedactedParts = Pick<RecordedExchange, 'label' | 'request' | 'response' | 'error'>;

/**
 * An exchange redacted when it is first read, not when it is recorded: most exchanges of a passing run are
 * never read (a passed check's exchanges go only to the reports that show them), and redacting every one
 * was most of the suite thread's time. Nothing unredacted can be read: the parts that hold text are
 * accessors that redact all of them at the first read of any (`JSON.stringify`, a spread, a structured
 * clone to another thread all read through them), then drop the raw values. Redacted later is redacted
 * no less: the rules are pinned now (`Redactor.pinned`: the recent JWTs as they are at the request, the
 * lasting secrets as they are at the read, a superset). The bodies are cut now to the window the
 * redaction needs, so a large answer is not held.
 */
function deferredExchange(
  seq: number,
  raw: RawExchange,
  pinned: (text: string) => string,
  bodyWindow: number,
  redactAll: (kept: KeptExchange, pinned: (text: string) => string, own: string[]) => RedactedParts,
): RecordedExchange {
  const { request, response } = raw;
  let pending: { kept: KeptExchange; ephemeral: readonly string[] } | undefined = {
    kept: {
      ...(raw.label === undefined ? {} : { label: raw.label }),
      request: { method: request.method, url: request.url, headers: request.headers, bodyBytes: request.body?.length ?? 0, ...(request.body === undefined ? {} : { body: windowOf(request.body, bodyWindow) }) },
      ...(response === undefined
        ? {}
        : { response: { status: response.status, headers: response.headers, bodyBytes: response.bodyBytes ?? response.body?.length ?? 0, ...(response.body === undefined ? {} : { body: windowOf(response.body, bodyWindow) }) } }),
      ...(raw.error === undefined ? {} : { error: raw.error }),
    },
    ephemeral: raw.ephemeral ?? [],
  };
  let parts: RedactedParts | undefined;
  const read = (): RedactedParts => {
    if (parts === undefined) {
      const { kept, ephemeral } = pending!;
      parts = redactAll(kept, pinned, ephemeral.length > 0 ? shapesLongestFirst(ephemeral) : []);
      pending = undefined;
    }
    return parts;
  };
  const exchange = { seq } as RecordedExchange;
  // The keys in the order a recorded exchange always had (report.json and the HAR list them so).
  const accessor = <K extends keyof RedactedParts>(key: K): void => {
    Object.defineProperty(exchange, key, { enumerable: true, configurable: true, get: () => read()[key] });
  };
  if (raw.label !== undefined) accessor('label');
  accessor('request');
  if (response !== undefined) accessor('response');
  if (raw.error !== undefined) accessor('error');
  exchange.startedAt = raw.startedAt;
  exchange.durationMs = raw.durationMs;
  if (raw.replay !== undefined) exchange.replay = raw.replay;
  return exchange;
}

/** The first `bytes` of a body, copied: a view would keep the whole answer alive until the exchange is read. */
function windowOf(body: Buffer, bytes: number): Buffer {
  return body.length <= bytes ? body : Buffer.from(body.subarray(0, bytes));
}
