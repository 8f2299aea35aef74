/**
 * `verify BUNDLE`: every check a customer needs before trusting an attestation, each named with what it
 * found. The signature (a public key, or a keyless certificate's identity and issuer against Sigstore's
 * trusted root: the public-good instance through TUF, or a trusted_root.json), then the payload: an in-toto
 * Statement v1 with the test-result predicate, its subject, its catalogue version, and the report it binds.
 * All checks run, so one verification names everything that is wrong.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { bundleFromJSON, BUNDLE_V03_MEDIA_TYPE, isBundleWithDsseEnvelope, type Bundle } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier, type VerificationPolicy } from '@sigstore/verify';
import { catalogueDescriptor } from './configuration.js';
import { EXTENSION_FIELD, IN_TOTO_PAYLOAD_TYPE, STATEMENT_TYPE, TEST_RESULT_PREDICATE_TYPE, type Subject, type TestResultStatement } from './statement.js';

export type CheckName = 'bundle' | 'signature' | 'statement' | 'predicate type' | 'subject' | 'catalogue' | 'report';

export interface VerifyCheck {
  name: CheckName;
  /** undefined: not checked (what was not asked for), with why in `detail`. */
  ok: boolean | undefined;
  detail: string;
}

export interface VerifyRequest {
  /** The bundle file's text. */
  bundleText: string;
  /** Keyed: the public key. */
  key?: KeyObject;
  /** Keyless: the certificate's identity (SAN: a URI or an e-mail) and OIDC issuer, and the trusted root (else TUF). */
  identity?: { identity: string; issuer: string; trustedRoot?: unknown; timeoutMs: number };
  subject?: Subject;
  /** The catalogue version the attestation must name. */
  catalogueVersion: string;
  /** report.json's bytes, to check it is the attested one. */
  report?: Buffer;
}

export interface VerifyOutcome {
  checks: VerifyCheck[];
  valid: boolean;
  statement?: TestResultStatement;
  /** Who signed: the key's hint, or the certificate's identity and issuer. */
  signer?: string;
}

const check = (name: CheckName, ok: boolean | undefined, detail: string): VerifyCheck => ({ name, ok, detail });

export async function verifyAttestation(request: VerifyRequest): Promise<VerifyOutcome> {
  const checks: VerifyCheck[] = [];
  const finish = (statement?: TestResultStatement, signer?: string): VerifyOutcome => ({
    checks,
    valid: checks.every((c) => c.ok !== false),
    ...(statement ? { statement } : {}),
    ...(signer ? { signer } : {}),
  });

  let serialized: unknown;
  let bundle: Bundle;
  try {
    serialized = JSON.parse(request.bundleText);
    bundle = bundleFromJSON(serialized);
  } catch (error) {
    checks.push(check('bundle', false, `not a Sigstore bundle: ${(error as Error).message}`));
    return finish();
  }
  if (!isBundleWithDsseEnvelope(bundle)) {
    checks.push(check('bundle', false, 'the bundle holds a message signature, not a DSSE envelope with an in-toto statement'));
    return finish();
  }
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.signatures.length !== 1) {
    checks.push(check('bundle', false, `the envelope has ${envelope.signatures.length} signatures; an attestation of this tool has exactly one`));
    return finish();
  }
  checks.push(check('bundle', true, `${bundle.mediaType === BUNDLE_V03_MEDIA_TYPE ? 'Sigstore bundle v0.3' : bundle.mediaType}, DSSE envelope of ${envelope.payloadType}`));

  const signer = await checkSignature(bundle, serialized, request, checks);
  const statement = checkPayload(envelope.payloadType, envelope.payload, checks);
  if (statement === undefined) return finish(undefined, signer);
  checkSubject(statement, request.subject, checks);
  checkCatalogue(statement, request.catalogueVersion, checks);
  checkReport(statement, request.report, checks);
  return finish(statement, signer);
}

async function checkSignature(bundle: Bundle, serialized: unknown, request: VerifyRequest, checks: VerifyCheck[]): Promise<string | undefined> {
  const material = bundle.verificationMaterial.content;
  const tampered = 'the envelope\'s signature does not verify over its payload: the payload or the signature was changed, or another key signed it';
  if (request.key !== undefined) {
    if (material.$case !== 'publicKey') {
      checks.push(check('signature', false, 'the bundle was signed keyless (it carries a certificate): verify it with --certificate-identity and --certificate-oidc-issuer'));
      return undefined;
    }
    const key = request.key;
    const verifier = new Verifier(toTrustMaterial(emptyTrustedRoot(), () => ({ publicKey: key, validFor: () => true })), { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 });
    try {
      verifier.verify(toSignedEntity(bundle));
    } catch (error) {
      checks.push(check('signature', false, isSignatureError(error) ? tampered : `${(error as Error).message}`));
      return undefined;
    }
    const hint = material.publicKey.hint;
    checks.push(check('signature', true, `verified with the given ${key.asymmetricKeyType === 'ed25519' ? 'Ed25519' : 'ECDSA P-256'} public key${hint ? ` (key ${hint.slice(0, 16)}…)` : ''}`));
    return `key ${hint || '(no hint)'}`;
  }
  if (request.identity === undefined) {
    checks.push(check('signature', false, 'no key and no certificate identity were given to check it with'));
    return undefined;
  }
  if (material.$case === 'publicKey') {
    checks.push(check('signature', false, 'the bundle was signed with a key, not keyless: verify it with --key PUB.pem'));
    return undefined;
  }
  const { identity, issuer, trustedRoot, timeoutMs } = request.identity;
  const policy: VerificationPolicy = { subjectAlternativeName: identity, extensions: { issuer } };
  try {
    if (trustedRoot === undefined) {
      // Loaded for the public-good root only: TUF fetches and checks it.
      const { verify: sigstoreVerify } = await import('sigstore');
      await sigstoreVerify(serialized as Parameters<typeof sigstoreVerify>[0], { certificateIdentityURI: identity, certificateIssuer: issuer, timeout: timeoutMs });
    } else {
      new Verifier(toTrustMaterial(TrustedRoot.fromJSON(trustedRoot))).verify(toSignedEntity(bundle), policy);
    }
  } catch (error) {
    checks.push(check('signature', false, isSignatureError(error) ? tampered : keylessFailure(error)));
    return undefined;
  }
  checks.push(check('signature', true, `keyless: a certificate for ${identity} from ${issuer}, logged in the transparency log, under ${trustedRoot === undefined ? 'Sigstore\'s public-good trusted root' : 'the given trusted root'}`));
  return `${identity} (${issuer})`;
}

function isSignatureError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SIGNATURE_ERROR' || code === 'TLOG_BODY_ERROR';
}

function keylessFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UNTRUSTED_SIGNER_ERROR') return `the certificate's identity or issuer is not the one given: ${message}`;
  return `${typeof code === 'string' ? `${code}: ` : ''}${message}`;
}

/** A trusted root that trusts nothing: a keyed bundle needs none (the given key is the trust). */
function emptyTrustedRoot(): TrustedRoot {
  return TrustedRoot.fromJSON({ mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1', tlogs: [], certificateAuthorities: [], ctlogs: [], timestampAuthorities: [] });
}

function checkPayload(payloadType: string, payload: Buffer, checks: VerifyCheck[]): TestResultStatement | undefined {
  if (payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    checks.push(check('statement', false, `the payload type is "${payloadType.slice(0, 80)}", not ${IN_TOTO_PAYLOAD_TYPE}`));
    return undefined;
  }
  let statement: Partial<TestResultStatement>;
  try {
    statement = JSON.parse(payload.toString('utf8')) as Partial<TestResultStatement>;
  } catch {
    checks.push(check('statement', false, 'the payload is not JSON (it was changed)'));
    return undefined;
  }
  if (typeof statement !== 'object' || statement === null || statement._type !== STATEMENT_TYPE || !Array.isArray(statement.subject)) {
    checks.push(check('statement', false, `the payload is not an in-toto Statement v1 (_type ${JSON.stringify(statement?._type ?? null).slice(0, 80)})`));
    return undefined;
  }
  checks.push(check('statement', true, `in-toto Statement v1 about ${statement.subject.length} subject${statement.subject.length === 1 ? '' : 's'}`));
  const predicate = statement.predicate;
  if (statement.predicateType !== TEST_RESULT_PREDICATE_TYPE || typeof predicate !== 'object' || predicate === null || !['PASSED', 'WARNED', 'FAILED'].includes(predicate.result)) {
    checks.push(check('predicate type', false, `predicateType is ${JSON.stringify(statement.predicateType ?? null).slice(0, 120)}, not ${TEST_RESULT_PREDICATE_TYPE} with a result`));
    return undefined;
  }
  checks.push(check('predicate type', true, `${TEST_RESULT_PREDICATE_TYPE}, result ${predicate.result}`));
  return statement as TestResultStatement;
}

function checkSubject(statement: TestResultStatement, expected: Subject | undefined, checks: VerifyCheck[]): void {
  const shown = statement.subject.map((s) => `${s.name}@sha256:${s.digest?.sha256 ?? '?'}`).join(', ');
  if (expected === undefined) {
    checks.push(check('subject', undefined, `not checked (no --subject): the attestation is about ${shown}`));
    return;
  }
  const found = statement.subject.some((s) => s.name === expected.name && s.digest?.sha256 === expected.digest.sha256);
  checks.push(check('subject', found, found ? `${expected.name}@sha256:${expected.digest.sha256}` : `the attestation is about ${shown}, not ${expected.name}@sha256:${expected.digest.sha256}`));
}

function checkCatalogue(statement: TestResultStatement, expected: string, checks: VerifyCheck[]): void {
  const descriptor = statement.predicate.configuration?.find((d) => d.name === 'catalogue');
  const version = descriptor?.annotations?.version;
  const extension = statement.predicate[EXTENSION_FIELD]?.catalogueVersion;
  if (typeof version !== 'string' || version !== extension) {
    checks.push(check('catalogue', false, `the configuration names no catalogue version (or two that differ: ${String(version)}, ${String(extension)})`));
    return;
  }
  if (version !== expected) {
    checks.push(check('catalogue', false, `catalogue ${version}, not ${expected}`));
    return;
  }
  const ours = catalogueDescriptor().digest?.sha256;
  const same = descriptor?.digest?.sha256 === ours;
  // Same version, other text (a wording fixed without a new version): said, not failed.
  checks.push(check('catalogue', true, `catalogue ${version}${same ? ', the same catalogue as this harness (digest matches)' : `; note: its digest differs from this harness's catalogue ${version} (another build)`}`));
}

function checkReport(statement: TestResultStatement, report: Buffer | undefined, checks: VerifyCheck[]): void {
  const attested = statement.predicate[EXTENSION_FIELD]?.report?.digest?.sha256;
  if (report === undefined) {
    checks.push(check('report', undefined, `not checked (no --report): the attested report.json has sha256 ${attested ?? '(none)'}`));
    return;
  }
  const actual = createHash('sha256').update(report).digest('hex');
  checks.push(check('report', actual === attested, actual === attested ? `report.json is the attested one (sha256 ${actual})` : `report.json has sha256 ${actual}, the attested one ${attested ?? '(none)'}: it was changed, or it is another run's`));
}
