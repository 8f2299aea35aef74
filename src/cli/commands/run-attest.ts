/**
 * `run --attest`'s part of the run command: before the run, the signing is made ready (the key read and
 * checked, or a keyless identity found), so a bad key fails in a second rather than after the checks; once
 * the reports are written, report.json is attested (src/attest/). The attest room, with the Sigstore
 * libraries, is imported only by a run that asks for it.
 */
import { join } from 'node:path';
import { HarnessError } from '../../errors.js';
import { JSON_REPORT_FILE } from '../../reporters/file-names.js';
import type { ResolvedProfile } from '../../profile/types.js';
import type { AttestSubjectRequest } from '../../reporters/index.js';
import type { SigningPlan } from '../../attest/index.js';
import type { RunPlan } from './run-options.js';

export interface PreparedAttestation {
  signing: SigningPlan;
  /** What the report and the attestation name as the subject, once the target is known. */
  subjectFor(profile: ResolvedProfile, imageId: string | undefined): AttestSubjectRequest;
  /** Attests report.json in outDir; returns the exit code to end with (a failure to attest is a harness error). */
  write(input: { outDir: string; profile: ResolvedProfile; exitCode: number }): Promise<number>;
}

/** Whether a keyless signature can get an OIDC token here: GitHub Actions' endpoint, or SIGSTORE_ID_TOKEN. */
function hasCiIdentity(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.SIGSTORE_ID_TOKEN) || Boolean(env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
}

export async function prepareAttestation(plan: RunPlan, env: NodeJS.ProcessEnv): Promise<PreparedAttestation | undefined> {
  if (!plan.attest) return undefined;
  const attest = await import('../../attest/index.js');
  let signing: SigningPlan;
  if (plan.signingKey !== undefined) {
    signing = { kind: 'key', key: await attest.loadSigningKey(plan.signingKey, env) };
  } else {
    if (!hasCiIdentity(env)) {
      throw new HarnessError('USAGE', '--attest without --signing-key signs keyless, which needs an OIDC identity token, and none is available here', {
        field: '--attest',
        hint: 'sign with --signing-key FILE (ECDSA P-256 or Ed25519 PEM); in GitHub Actions give the job `permissions: id-token: write`; elsewhere set SIGSTORE_ID_TOKEN',
      });
    }
    signing = { kind: 'keyless', fulcioUrl: plan.fulcioUrl, rekorUrl: plan.rekorUrl, timeoutMs: plan.client.timeoutMs };
  }
  return {
    signing,
    subjectFor: (profile, imageId) => {
      if (plan.subject !== undefined) return { from: 'subject', name: plan.subject.name, sha256: plan.subject.digest.sha256! };
      if (imageId !== undefined && plan.target.kind === 'image') return { from: 'image', name: plan.target.image, sha256: imageId.slice('sha256:'.length) };
      if (profile.openapi === undefined) {
        throw new HarnessError('USAGE', '--attest has no subject: give --subject NAME@sha256:HEX (the build or release checked), or a description (--openapi) whose digest names the deployment', {
          field: '--subject',
        });
      }
      return { from: 'description', name: profile.baseUrl };
    },
    write: async ({ outDir, profile, exitCode }) => {
      try {
        const { bundlePath, profilePath, statement } = await attest.attestRun({
          outDir,
          reportPath: join(outDir, JSON_REPORT_FILE),
          profile,
          strict: plan.strict,
          only: plan.only,
          skip: plan.skip,
          partial: plan.partial,
          ...(plan.baseline === undefined ? {} : { baselinePath: plan.baseline }),
          signing,
          env,
        });
        const subject = statement.subject[0]!;
        const { result, passedTests, warnedTests, failedTests, accessConformance } = statement.predicate;
        const scope = accessConformance.scope ? `, partial scope: ${accessConformance.scope.summary}` : '';
        process.stdout.write(
          `attestation: ${bundlePath} (${result}${scope}: ${passedTests.length} passed, ${warnedTests.length} warned, ${failedTests.length} failed; ` +
            `subject ${subject.name}@sha256:${subject.digest.sha256}; signed ${signing.kind === 'key' ? 'with the given key' : 'keyless through Sigstore'})\n` +
            `  the profile it hashed, secrets removed: ${profilePath}; check it with: access-conformance verify ${bundlePath} --report ${join(outDir, JSON_REPORT_FILE)} ${signing.kind === 'key' ? '--key PUB.pem' : '--certificate-identity ID --certificate-oidc-issuer ISSUER'}\n`,
        );
        return exitCode;
      } catch (error) {
        const failure = error instanceof HarnessError ? error : new HarnessError('ATTEST_FAILED', `the attestation could not be written: ${(error as Error).message}`, { cause: error });
        process.stderr.write(`${failure.format()}\n`);
        // A failure beats a harness error: a not-conformant run stays 1; otherwise the missing attestation is 2.
        return exitCode === 1 ? 1 : 2;
      }
    },
  };
}

/** The reporters of a run that attests: report.json is what the attestation binds, so json is always written. */
export function withJsonReporter<T extends string>(names: readonly T[], attest: boolean): T[] {
  return attest && !names.includes('json' as T) ? [...names, 'json' as T] : [...names];
}
