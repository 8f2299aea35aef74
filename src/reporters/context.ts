/**
 * What every reporter is built with. `redact` is the last line of defence: the profile's secrets and the
 * recorder's rules (tokens, JWTs, secret-named fields), applied to every text a reporter prints or writes,
 * on top of the redaction the client already did when it recorded the exchanges.
 */
import { resolve } from 'node:path';
import { runSecrets } from '../client/secret-registry.js';
import { writeOutputFile } from '../output-file.js';
import type { ResolvedProfile } from '../profile/types.js';
import type { RunInvocation } from './rerun.js';

export interface ReporterOutput {
  write(text: string): void;
}

/**
 * The subject `run --attest` certifies: an image's digest, `--subject NAME@sha256:HEX`, or (neither given)
 * the run's OpenAPI description's digest under the profile's baseUrl, which only the run's header knows.
 */
export type AttestSubjectRequest = { from: 'image' | 'subject'; name: string; sha256: string } | { from: 'description'; name: string };

export interface ReporterContext {
  /** Folder for report files (created on demand). */
  outDir: string;
  /** Where the console reporter prints. */
  stdout: ReporterOutput;
  /** Environment (GITHUB_STEP_SUMMARY). */
  env: NodeJS.ProcessEnv;
  /** Every recorder rule (secrets, tokens, JWTs, secret-named fields): for values and free text. */
  redact(text: string): string;
  /**
   * The profile's secrets only, in every encoded shape: safe on a serialised document (JSON, XML, HTML),
   * where the field rules of `redact` could eat a closing quote. Applied after `redact` on every value.
   */
  scrub(text: string): string;
  /** Report files written so far (file reporters push, the console lists them). */
  artifacts: string[];
  /** `run --har FILE`: where every exchange of the run is written as HAR 1.2 (relative to the cwd). */
  harPath?: string;
  /** How the run was started: each failed check's rerun line is built from it (reporters/rerun.ts). */
  invocation?: RunInvocation;
  /** `run --attest`: what the attestation will certify, which report.json states (json-report.ts `attestation`). */
  attestSubject?: AttestSubjectRequest;
}

/**
 * Both read the run's redaction registry (src/client/secret-registry.ts) at the moment they are called:
 * besides the profile's secrets, every token any worker obtained so far.
 */
export function createRedact(profile: Pick<ResolvedProfile, 'secrets'>): (text: string) => string {
  const registry = runSecrets();
  registry.addAll(profile.secrets);
  return (text) => registry.redact(text);
}

export function createScrub(profile: Pick<ResolvedProfile, 'secrets'>): (text: string) => string {
  const registry = runSecrets();
  registry.addAll(profile.secrets);
  return (text) => registry.scrub(text);
}

/** Applies `redact` to every string inside a JSON-like value (before it is escaped for XML or HTML). */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, redact);
    return out as T;
  }
  return value;
}

/**
 * How a file reporter writes: `value` redacted string by string, rendered, the rendered text scrubbed of
 * the profile's secrets, written to <outDir>/<fileName> (or to fileName when it is absolute) and listed as an artifact. One path for every
 * report file, so none can skip a step. Returns the text written.
 */
export async function writeReportFile<T>(ctx: ReporterContext, fileName: string, value: T, render: (redacted: T) => string): Promise<string> {
  const text = ctx.scrub(render(redactDeep(value, ctx.redact)));
  // A bare name lands in the out dir; a path (`--har build/run.har`) is taken as given.
  const path = resolve(ctx.outDir, fileName);
  // A full disk, a folder of that name, no permission, a FIFO nobody reads: OUTPUT_UNWRITABLE naming the
  // flag, and the engine's emitter still runs the other reporters (output-file.ts).
  await writeOutputFile(path, text, ctx.harPath !== undefined && path === resolve(ctx.harPath) ? '--har' : '--out');
  ctx.artifacts.push(path);
  return text;
}
