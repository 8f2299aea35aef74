/**
 * `run --attest`: the verdict as a signed in-toto attestation, and `verify`. This room is the one that
 * imports the Sigstore libraries (sigstore, @sigstore/sign, @sigstore/verify, @sigstore/bundle,
 * @sigstore/protobuf-specs). The statement is made from report.json as written (statement.ts), its
 * configuration from the catalogue, the profile without secrets, the spec and the options
 * (configuration.ts), and it is signed into a Sigstore bundle (sign.ts). docs/certify.md is the user's side.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedProfile } from '../profile/types.js';
import { canonicalJson, sha256Hex } from './canonical.js';
import {
  baselineFile,
  catalogueDescriptor,
  descriptionDescriptor,
  harnessDescriptor,
  optionsDescriptor,
  profileDescriptor,
  profileWithoutSecrets,
  specDescriptors,
  type ResourceDescriptor,
} from './configuration.js';
import { signPayload, statementPayload, type SigningPlan } from './sign.js';
import { buildStatement, ciRunUrl, readAttestedReport, type TestResultStatement } from './statement.js';

export { loadPublicKey, loadSigningKey } from './keys.js';
export type { SigningPlan } from './sign.js';
export { parseSubject, testLists, TEST_RESULT_PREDICATE_TYPE, type Subject, type TestResultStatement } from './statement.js';
export { verifyAttestation, type VerifyCheck, type VerifyOutcome, type VerifyRequest } from './verify.js';
export { canonicalJson, sha256Hex };

export const ATTESTATION_FILE = 'attestation.sigstore.json';
/** The profile as hashed into the attestation (secrets removed), for the implementer to publish beside it. */
export const ATTESTED_PROFILE_FILE = 'attestation.profile.json';

export interface AttestRunInput {
  outDir: string;
  /** report.json as the run wrote it. */
  reportPath: string;
  /** The profile the run used (after --openapi). */
  profile: ResolvedProfile;
  strict: boolean;
  only: readonly string[];
  skip: readonly string[];
  /** `run --partial`. */
  partial?: boolean;
  baselinePath?: string;
  signing: SigningPlan;
  env: NodeJS.ProcessEnv;
}

export interface AttestRunResult {
  bundlePath: string;
  profilePath: string;
  statement: TestResultStatement;
}

export async function attestRun(input: AttestRunInput): Promise<AttestRunResult> {
  const reportBytes = await readFile(input.reportPath);
  const report = readAttestedReport(reportBytes.toString('utf8'));
  const profile = profileWithoutSecrets(input.profile);
  const configuration: ResourceDescriptor[] = [
    catalogueDescriptor(),
    profileDescriptor(profile, input.profile, ATTESTED_PROFILE_FILE),
    ...[descriptionDescriptor(report.operations?.description)].filter((d): d is ResourceDescriptor => d !== undefined),
    ...(await specDescriptors()),
    await harnessDescriptor(),
    optionsDescriptor({
      strict: input.strict,
      only: input.only,
      skip: input.skip,
      ...(input.partial ? { partial: true } : {}),
      ...(input.baselinePath === undefined ? {} : { baseline: await baselineFile(input.baselinePath) }),
    }),
  ];
  const url = ciRunUrl(input.env);
  const statement = buildStatement({ report, reportSha256: sha256Hex(reportBytes), configuration, ...(url === undefined ? {} : { url }) });
  const bundle = await signPayload(statementPayload(statement), input.signing);
  const profilePath = join(input.outDir, ATTESTED_PROFILE_FILE);
  const bundlePath = join(input.outDir, ATTESTATION_FILE);
  // Exactly the hashed bytes: `sha256sum attestation.profile.json` gives the descriptor's digest.
  await writeFile(profilePath, canonicalJson(profile));
  // Written whole or not at all: a half-written bundle beside the report would only fail verification.
  await writeFile(`${bundlePath}.partial`, `${JSON.stringify(bundle)}\n`);
  await rename(`${bundlePath}.partial`, bundlePath);
  return { bundlePath, profilePath, statement };
}
