/**
 * The run's redaction registry: one place that knows every value that authenticates, whoever minted or
 * received it (the profile's secrets, access tokens obtained in any worker, secrets handed to the client).
 * Every output path applies it last: the console, each report file, container logs. It lives in the
 * process that writes the outputs; the workers feed it through the run channel and the checks' meta.
 */
import { Redactor } from './redact.js';

export class SecretRegistry {
  // Lasting secrets only (few: profile secrets, one token per credential and method): kept for good.
  private readonly redactor = new Redactor([]);

  add(secret: string): void {
    this.redactor.addFixed(secret);
  }

  addAll(secrets: Iterable<string>): void {
    for (const secret of secrets) this.add(secret);
  }

  /** Every rule: secrets in each encoded shape, JWTs, secret-named fields. For values and free text. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** Secrets' shapes and JWTs only: safe on a serialised document (no field rule can eat a quote). */
  scrub(text: string): string {
    return this.redactor.scrub(text);
  }
}

let processRegistry: SecretRegistry | undefined;

/**
 * The registry of this process. One per process rather than per run: a value that authenticated once is
 * redacted in every later output too, which can only hide more, never less.
 */
export function runSecrets(): SecretRegistry {
  processRegistry ??= new SecretRegistry();
  return processRegistry;
}
