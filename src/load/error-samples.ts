/**
 * The first few errors of each kind a load run met (an unexpected HTTP status, or a transport failure by its
 * code), with the start of the body the target answered: a run that got 100 % HTTP 400 says why. Capped per
 * kind and per body, redacted before they are kept, so the report holds no secret and stays small. The
 * driver's loop is hot: the transport keeps a body only when `wants` says the kind is still short of samples.
 */

export interface ErrorSample {
  /** `HTTP 400`, or a transport failure's code (`TIMEOUT`, `CONNECTION_RESET`, …). */
  kind: string;
  /** The HTTP status; 0 for a transport failure. */
  status: number;
  /** The start of the answer's body (UTF-8, redacted); absent when there was none. */
  body?: string;
  /** The body was longer than the part kept. */
  truncated?: boolean;
}

export const ERROR_SAMPLES_PER_KIND = 3;
/** Bytes of each sample's body kept: enough for a problem+json error, never a whole page. */
export const ERROR_SAMPLE_BODY_BYTES = 512;
/**
 * Bytes of a sampled body the parser keeps: the shown part and a margin past it, so a secret or token that
 * straddles the cut is redacted whole before the text is cut (cut first, its prefix would stay readable).
 */
export const ERROR_SAMPLE_KEEP_BYTES = ERROR_SAMPLE_BODY_BYTES + 8192;

export function statusKind(status: number): string {
  return `HTTP ${status}`;
}

export class ErrorSamples {
  private readonly byKind = new Map<string, ErrorSample[]>();

  constructor(
    /** The run's redaction (the profile's secrets and the client's rules for tokens and JWTs). */
    private readonly redactText: (text: string) => string,
    readonly perKind = ERROR_SAMPLES_PER_KIND,
    readonly bodyBytes = ERROR_SAMPLE_BODY_BYTES,
  ) {}

  /** True while the kind has fewer than `perKind` samples: only then is a body worth keeping. */
  wants(kind: string): boolean {
    const kept = this.byKind.get(kind);
    return kept === undefined || kept.length < this.perKind;
  }

  /** Keeps a sample when the kind still wants one. `totalBytes`: the whole body's size, to mark a cut. */
  add(kind: string, status: number, body?: Buffer, totalBytes = body?.length ?? 0): void {
    if (!this.wants(kind)) return;
    const sample: ErrorSample = { kind, status };
    if (body && body.length > 0) {
      // Redacted whole, then cut to bodyBytes (a partial character at the cut is dropped by the decoder).
      const redacted = Buffer.from(this.redactText(body.toString('utf8')));
      const kept = redacted.subarray(0, this.bodyBytes);
      sample.body = kept.toString('utf8').replace(/\uFFFD$/, '');
      if (totalBytes > body.length || redacted.length > kept.length) sample.truncated = true;
    }
    this.keep(sample);
  }

  /** Keeps a sample made elsewhere (a `load --workers` thread's, already redacted and cut) when its kind still wants one. */
  keep(sample: ErrorSample): void {
    if (!this.wants(sample.kind)) return;
    const list = this.byKind.get(sample.kind);
    if (list) list.push(sample);
    else this.byKind.set(sample.kind, [sample]);
  }

  /** Every sample, kinds in the order first met. */
  list(): ErrorSample[] {
    return [...this.byKind.values()].flat();
  }
}
