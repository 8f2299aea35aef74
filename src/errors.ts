/**
 * The two error families of the harness.
 *
 * - {@link HarnessError}: the setup is wrong (bad profile, unreachable target, timeout, missing Docker...).
 *   It carries a stable {@link HarnessErrorCode} and leads to exit code 2.
 * - {@link ConformanceFailure}: the target answered, and the answer breaks a requirement. Exit code 1.
 *
 * Both are plain data plus a message so they survive serialisation between vitest workers and the CLI.
 */

/** Stable codes of harness errors. Append new codes; never rename one (reports and scripts match on them). */
export const HARNESS_ERROR_CODES = [
  // usage and input
  'USAGE',
  'NOTHING_SELECTED',
  'PROFILE_NOT_FOUND',
  'PROFILE_UNREADABLE',
  'PROFILE_INVALID',
  'PROFILE_SECRET_MISSING',
  'PROFILE_FILE_MISSING',
  'BASELINE_INVALID',
  'REPORT_INVALID',
  // credentials and keys handed to the harness
  'CLIENT_ID_INVALID',
  'CLIENT_SECRET_INVALID',
  'KEY_INVALID',
  // transport
  'TARGET_UNREACHABLE',
  'DNS',
  'TLS',
  'TIMEOUT',
  'CONNECTION_RESET',
  'RESPONSE_TOO_LARGE',
  'PAGE_LOOP',
  'PAGE_LIMIT',
  // the target's side of the harness contract
  'TOKEN_UNAVAILABLE',
  'HOOK_BROKEN',
  'JWKS_SERVER',
  // containers
  'DOCKER_UNAVAILABLE',
  'IMAGE_NOT_FOUND',
  'IMAGE_START_FAILED',
  'IMAGE_PROFILE_TIMEOUT',
  'IMAGE_BUILD_FAILED',
  // load
  'LOAD_CONFIG',
  'CORPUS_INVALID',
  // anything else: a bug in the harness
  'INTERNAL',
  // transport (appended): the target's answer is not HTTP the client can parse
  'HTTP_PROTOCOL',
  // an optional dependency (testcontainers for --image) is not installed
  'DEPENDENCY_MISSING',
  // run limits (appended): a 429 asking to wait past the cap, the run's deadline, SIGINT/SIGTERM
  'RATE_LIMITED',
  'DEADLINE',
  'INTERRUPTED',
  // the target (appended): nearly every request of the run got the same answer (one status, or none)
  'UNIFORM_ANSWER',
  // serve --state-dir (appended): the directory cannot be used, or another process holds it
  'STATE_DIR',
  'STATE_DIR_LOCKED',
  // the service's OpenAPI description (appended): a file or URL that cannot be read, or is not an OpenAPI 3 document
  'OPENAPI_UNREADABLE',
  'OPENAPI_INVALID',
  // run --attest (appended): the attestation could not be signed (no OIDC token, Fulcio or Rekor refused or unreachable)
  'ATTEST_FAILED',
  // ruling 35 (appended): the client's firewall refused a request an operation would have sent (another
  // origin, a path whose shape differs from its template, a method that is not GET or POST to a read)
  'REQUEST_REFUSED',
  // run limits (appended): the description plans more operations than --max-operations allows
  'RUN_TOO_LARGE',
  // serve --state-dir (appended): the directory's files cannot be proved whole (a damaged log or table, a cut log)
  'STATE_DIR_CORRUPT',
  // an output (a report file, load --stream) that cannot be written: disk full, a folder, no permission, a reader that never reads
  'OUTPUT_UNWRITABLE',
] as const;

export type HarnessErrorCode = (typeof HARNESS_ERROR_CODES)[number];

export interface HarnessErrorOptions {
  /** What the user can do about it, one sentence. */
  hint?: string;
  /** The offending field or flag, e.g. `credentials.primary.clientSecret` or `--rate`. */
  field?: string;
  cause?: unknown;
}

/** The hint of a check that could not run because a suite or the harness itself broke. */
export const SUITE_BUG_HINT = 'this is a bug in the suite or in the harness; rerun with --only to isolate it';

/**
 * `Name: message` of something thrown, for one line of a report: an Error, or an error vitest serialized
 * (a plain object with a message); anything else as a string.
 */
export function errorLine(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    const { name, message } = error as { name?: unknown; message: string };
    return `${typeof name === 'string' && name !== '' ? name : 'Error'}: ${message}`;
  }
  return String(error);
}

/** The setup is wrong, not the target. Never carries secrets in its message. */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  readonly code: HarnessErrorCode;
  readonly hint?: string;
  readonly field?: string;

  constructor(code: HarnessErrorCode, message: string, options: HarnessErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.field = options.field;
  }

  /** One line for the console: `error[TIMEOUT]: ... (hint)`. */
  format(): string {
    const where = this.field ? ` at ${this.field}` : '';
    const hint = this.hint ? `\n  hint: ${this.hint}` : '';
    return `error[${this.code}]${where}: ${this.message}${hint}`;
  }
}

/**
 * The HarnessError class of one kind of malformed value (a Client ID, a Client Secret): one code, one hint,
 * and the rule the value broke as `reason`. One class per kind, so `instanceof` tells them apart.
 */
export function valueErrorClass<R extends string>(code: HarnessErrorCode, hint: string) {
  return class extends HarnessError {
    readonly reason: R;
    constructor(reason: R, message: string, field?: string) {
      super(code, message, { field, hint });
      this.reason = reason;
    }
  };
}

export function isHarnessError(value: unknown): value is HarnessError {
  return (
    value instanceof HarnessError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'HarnessError' &&
      typeof (value as { code?: unknown }).code === 'string')
  );
}

/** The target broke a requirement: what was expected, what came back. */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly expected: string;
  readonly actual: string;

  constructor(message: string, expected: string, actual: string) {
    super(message);
    this.expected = expected;
    this.actual = actual;
  }
}

export function isConformanceFailure(value: unknown): value is ConformanceFailure {
  return (
    value instanceof ConformanceFailure ||
    (typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'ConformanceFailure')
  );
}

/** Process exit codes of every command. */
export const EXIT = { CONFORMANT: 0, NOT_CONFORMANT: 1, HARNESS: 2 } as const;

/** The signals that stop a run: SIGINT (Ctrl-C) and SIGTERM (a CI job's timeout, `docker stop`). */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** 128 + the signal's number, as a shell reports a process the signal ended: 130 and 143. */
export function signalExitCode(signal: StopSignal): 130 | 143 {
  return signal === 'SIGINT' ? 130 : 143;
}
