/**
 * The exchange recorder: every request and answer, redacted before it is stored, in order, bounded.
 * Failure reports show these records, so nothing secret may ever reach the array.
 */
import type { ExchangeRecorder, RecordedExchange } from './types.js';
import { CREDENTIAL_HEADERS, OPAQUE_HEADERS, REDACTED, Redactor, replaceShapes, shapesLongestFirst } from './redact.js';

/** One-request values remembered for the texts a check builds after the exchange (failure messages). */
const RECENT_EPHEMERAL = 64;

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

  let recent: string[][] = [];
  const redactText = (text: string): string => {
    let out = redactor.redact(text);
    for (const shapes of recent) out = replaceShapes(out, shapes);
    return out;
  };

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

  const redactBody = (body: Buffer | undefined, redact: (text: string) => string, totalBytes?: number): { body?: string; bodyBytes: number; bodyTruncated: boolean } => {
    if (body === undefined) return { bodyBytes: totalBytes ?? 0, bodyTruncated: false };
    const bodyBytes = totalBytes ?? body.length;
    // Redact a window past the bound (the longest secret shape, as UTF-8 can take 4 bytes a char) so a
    // secret that starts before the cut is replaced whole, then cut the redacted text.
    const window = body.subarray(0, bodyBound + redactor.longestShape() * 4 + 64);
    const redacted = Buffer.from(redact(window.toString('utf8')), 'utf8');
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
      recent.push(shapesLongestFirst([value]));
      if (recent.length > RECENT_EPHEMERAL) recent = recent.slice(-RECENT_EPHEMERAL);
    },
    learnSecret: (value) => {
      redactor.addFixed(value);
    },
    redact: (text) => redactText(text),
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
      const own = raw.ephemeral && raw.ephemeral.length > 0 ? shapesLongestFirst(raw.ephemeral) : [];
      const redact = own.length === 0 ? (text: string) => redactor.redact(text) : (text: string) => replaceShapes(redactor.redact(text), own);
      const exchange: RecordedExchange = {
        seq: nextSeq,
        ...(raw.label === undefined ? {} : { label: redact(raw.label) }),
        request: {
          method: raw.request.method,
          url: redact(raw.request.url),
          headers: redactHeaders(raw.request.headers, redact),
          ...redactBody(raw.request.body, redact),
        },
        ...(raw.response === undefined
          ? {}
          : {
              response: {
                status: raw.response.status,
                headers: redactHeaders(raw.response.headers, redact),
                ...redactBody(raw.response.body, redact, raw.response.bodyBytes),
              },
            }),
        ...(raw.error === undefined ? {} : { error: { code: raw.error.code, message: redact(raw.error.message) } }),
        startedAt: raw.startedAt,
        durationMs: raw.durationMs,
        ...(raw.replay === undefined ? {} : { replay: raw.replay }),
      };
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
