/**
 * The statement's parts, in process: each result in its one list, the predicate's result, the subject's
 * grammar, RFC 8785 canonical JSON and the catalogue's digest (recomputed here from `list --format json`'s
 * text with a canonicalizer of the test's own), the profile's secrets removed before hashing, the keys
 * refused, and verify's payload checks on statements signed here.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newKeyPair } from './support.js';
import { describe, expect, it } from 'vitest';
import { buildStatement, overallResult, parseSubject, readAttestedReport, testLists, type AttestedReport } from '../../src/attest/statement.js';
import { canonicalJson } from '../../src/attest/canonical.js';
import { baselineFile, catalogueDescriptor, optionsDescriptor, profileWithoutSecrets } from '../../src/attest/configuration.js';
import { loadPublicKey, loadSigningKey } from '../../src/attest/keys.js';
import type { HarnessError } from '../../src/errors.js';
import { signPayload, statementPayload } from '../../src/attest/sign.js';
import { verifyAttestation } from '../../src/attest/verify.js';
import { renderJson } from '../../src/cli/commands/list.js';
import { allRequirements, CATALOGUE_VERSION } from '../../src/requirements/catalogue.js';
import type { ResolvedProfile } from '../../src/profile/types.js';

const HEX = 'ab'.repeat(32);

function report(strict: boolean, verdictExit = 1): AttestedReport {
  return {
    catalogueVersion: CATALOGUE_VERSION,
    strict,
    verdict: { status: verdictExit === 0 ? 'conformant' : 'not-conformant', exitCode: verdictExit, reason: 'r' },
    results: [
      { id: 'TOK-01', level: 'MUST', state: 'passed' },
      { id: 'OPS-04', operation: { method: 'post', path: '/api/v1/search/apps' }, level: 'MUST', state: 'failed' },
      { id: 'TOK-26', level: 'SHOULD', state: 'failed' },
      { id: 'RUN-X02', level: 'INFO', state: 'failed' },
      { id: 'WH-01', level: 'MUST', state: 'errored' },
      { id: 'WH-02', level: 'MUST', state: 'skipped', reason: 'profile has no webhooks.hmac' },
      { id: 'WH-03', level: 'MUST', state: 'blocked', blockedBy: 'WH-01' },
      { id: 'CRED-05', level: 'MUST', state: 'failed', expectedFailure: true },
    ],
    attestation: { subject: { name: 'svc', digest: { sha256: HEX } }, from: 'subject', note: 'n' },
  };
}

describe('the test lists', () => {
  it('puts each result in exactly one list; a SHOULD failure is warned, with --strict failed', () => {
    expect(testLists(report(false))).toEqual({
      passedTests: ['TOK-01'],
      warnedTests: ['TOK-26', 'RUN-X02'],
      failedTests: ['OPS-04@POST /api/v1/search/apps', 'WH-01', 'CRED-05'],
      erroredTests: ['WH-01'],
      skippedTests: [{ name: 'WH-02', reason: 'profile has no webhooks.hmac' }],
      blockedTests: [{ name: 'WH-03', blockedBy: 'WH-01' }],
      expectedFailures: ['CRED-05'],
    });
    expect(testLists(report(true)).failedTests).toEqual(['OPS-04@POST /api/v1/search/apps', 'TOK-26', 'WH-01', 'CRED-05']);
    expect(testLists(report(true)).warnedTests).toEqual(['RUN-X02']);
  });

  it('result: FAILED on a failure or a verdict other than conformant, WARNED on warnings alone, else PASSED', () => {
    const empty = { passedTests: ['A'], warnedTests: [], failedTests: [], erroredTests: [], skippedTests: [], blockedTests: [], expectedFailures: [] };
    expect(overallResult(empty, 0)).toBe('PASSED');
    expect(overallResult({ ...empty, warnedTests: ['B'] }, 0)).toBe('WARNED');
    expect(overallResult({ ...empty, failedTests: ['C'] }, 0)).toBe('FAILED');
    // A run stopped early or undecided (exit 2) never reads as a pass, whatever its lists.
    expect(overallResult(empty, 2)).toBe('FAILED');
  });

  it('builds the statement from the report, and refuses one with no subject digest or an unknown state', () => {
    const statement = buildStatement({ report: report(false), reportSha256: HEX, configuration: [] });
    expect(statement.subject).toEqual([{ name: 'svc', digest: { sha256: HEX } }]);
    expect(statement.predicate.accessConformance.results).toBe(8);
    const noDigest = { ...report(false), attestation: { subject: { name: 'http://x', digest: {} }, from: 'description', note: '' } };
    expect(() => buildStatement({ report: noDigest, reportSha256: HEX, configuration: [] })).toThrow(/no digest: the run read no OpenAPI description/);
    const odd = { ...report(false), results: [{ id: 'X', level: 'MUST', state: 'maybe' }] };
    expect(() => testLists(odd)).toThrow(/unknown state "maybe"/);
    expect(() => readAttestedReport('{"results": []}')).toThrow(/no "catalogueVersion"/);
  });
});

describe('--subject', () => {
  it('takes NAME@sha256:HEX, a name that holds @ included, and refuses anything else', () => {
    expect(parseSubject(`ghcr.io/acme/svc@sha256:${HEX.toUpperCase()}`)).toEqual({ name: 'ghcr.io/acme/svc', digest: { sha256: HEX } });
    expect(parseSubject(`pkg:npm/@acme/svc@1.2.0@sha256:${HEX}`).name).toBe('pkg:npm/@acme/svc@1.2.0');
    for (const bad of ['svc', `@sha256:${HEX}`, 'svc@sha256:abc', `svc@sha1:${HEX}`]) expect(() => parseSubject(bad), bad).toThrow(/takes NAME@sha256:HEX/);
  });
});

/** RFC 8785 for what the catalogue holds, written here: keys sorted, no spaces, JSON.stringify's strings. */
function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${jcs((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonical JSON and the catalogue digest', () => {
  it('sorts keys at every depth, drops undefined, keeps array order', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: 'é' }], a: true, c: undefined, d: null })).toBe('{"a":true,"b":[3,{"a":"é","z":1}],"d":null}');
  });

  it('the catalogue digest is the SHA-256 of `list --format json` in canonical form', () => {
    const listed = JSON.parse(renderJson(allRequirements())) as unknown;
    const digest = createHash('sha256').update(jcs(listed)).digest('hex');
    const descriptor = catalogueDescriptor();
    expect(descriptor.digest).toEqual({ sha256: digest });
    expect(descriptor.annotations).toMatchObject({ version: CATALOGUE_VERSION, requirements: allRequirements().length });
  });
});

describe('the options that change a verdict', () => {
  it('are shown as given and hashed canonically, the baseline by its file\'s digest', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ac-baseline-')), 'known.json');
    writeFileSync(file, '["CRED-05"]\n');
    const baseline = await baselineFile(file);
    expect(baseline).toEqual({ file: 'known.json', sha256: createHash('sha256').update('["CRED-05"]\n').digest('hex') });
    const descriptor = optionsDescriptor({ strict: true, only: ['TOK-*'], skip: ['TOK-40'], baseline });
    expect(descriptor.annotations).toEqual({ strict: true, only: ['TOK-*'], skip: ['TOK-40'], baseline });
    expect(descriptor.digest).toEqual({ sha256: createHash('sha256').update(jcs(descriptor.annotations)).digest('hex') });
    expect(optionsDescriptor({ strict: false, only: [], skip: [] }).annotations).toEqual({ strict: false, only: [], skip: [], baseline: null });
  });
});

describe('the profile without secrets', () => {
  it('removes every secret, by field and by value, and the list of secrets itself', () => {
    const secrets = ['secret-token:c1.example:v1:abcdefgh', 'hmac-secret-value-0123456789', 'hook-token-xyz', 'private-d-param'];
    const profile = {
      version: 1,
      name: 'impl',
      baseUrl: 'https://impl.example',
      tenantDomain: 'impl.example',
      webhookBaseUrl: 'https://impl.example',
      tls: { insecureSkipVerify: false },
      credentials: { primary: { clientId: 'id@impl.example/app', clientSecret: secrets[0]! } },
      apps: { entitlements: {} },
      webhooks: {
        hmac: { listenerId: 'l1', secret: secrets[1]! },
        jwt: { listenerId: 'l2', signingKeys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'k', alg: 'EdDSA', x: 'public-x', d: secrets[3]! }] },
      },
      hooks: { baseUrl: 'https://impl.example/hooks', token: secrets[2]! },
      limits: { webhookBodyBytes: 65536 },
      // A description URL is published as the reports show it: no userinfo, query or fragment, whatever
      // they carry (a token the profile does not know as a secret included).
      openapi: `https://user:pw@impl.example/openapi.json?token=${secrets[2]!}&other=not-a-profile-secret#frag`,
      secrets,
    } as unknown as ResolvedProfile;
    const clean = canonicalJson(profileWithoutSecrets(profile));
    for (const secret of secrets) expect(clean).not.toContain(secret);
    expect(clean).not.toContain('"secrets"');
    expect(clean).toContain('"clientId":"id@impl.example/app"');
    expect(clean).toContain('"x":"public-x"');
    expect(clean).toContain('"openapi":"https://impl.example/openapi.json"');
    expect(clean).not.toMatch(/not-a-profile-secret|user:pw|frag/);
  });
});

describe('keys', () => {
  it('reads a PEM from {"env": NAME}; refuses RSA, P-384, a missing variable and a public key as signing key', async () => {
    const ed = await newKeyPair('ed25519');
    const pem = ed.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect((await loadSigningKey('{"env": "K"}', { K: pem })).asymmetricKeyType).toBe('ed25519');
    await expect(loadSigningKey('{"env": "K"}', {})).rejects.toThrow(/the variable K is not set/);
    const rsa = (await newKeyPair('rsa', { modulusLength: 1024 })).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(loadSigningKey('{"env": "K"}', { K: rsa })).rejects.toThrow(/the key is an RSA key/);
    const p384 = (await newKeyPair('ec', { namedCurve: 'P-384' })).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(loadSigningKey('{"env": "K"}', { K: p384 })).rejects.toThrow(/an EC key on secp384r1/);
    const pub = ed.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await expect(loadSigningKey('{"env": "K"}', { K: pub })).rejects.toThrow(/not a PEM private key/);
    expect((await loadPublicKey('{"env": "K"}', { K: pub })).asymmetricKeyType).toBe('ed25519');
  });

  it('a key pasted inline instead of a path is refused without echoing it (it would land in the CI log)', async () => {
    const pem = (await newKeyPair('ed25519')).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const body = pem.split('\n')[1]!;
    const error = await loadSigningKey(pem, {}).then(() => undefined, (caught: unknown) => caught as HarnessError);
    expect(error?.code).toBe('KEY_INVALID');
    expect(error?.message).toMatch(/is not a file path \(a PEM key given inline\?\)/);
    expect(`${error?.message} ${error?.hint}`).not.toContain(body);
    await expect(loadSigningKey('/nonexistent/signing.pem', {})).rejects.toThrow(/\/nonexistent\/signing\.pem cannot be used/);
  });
});

const pair = await newKeyPair('ec', { namedCurve: 'P-256' });

describe('verify, on statements signed here', () => {
  const sign = async (statement: unknown) => JSON.stringify(await signPayload(statementPayload(statement), { kind: 'key', key: pair.privateKey }));
  const good = buildStatement({ report: report(false), reportSha256: HEX, configuration: [catalogueDescriptor()] });

  it('is valid with the key; names the predicate type of another statement', async () => {
    const valid = await verifyAttestation({ bundleText: await sign(good), key: pair.publicKey, catalogueVersion: CATALOGUE_VERSION });
    expect(valid.checks.filter((c) => c.ok === false)).toEqual([]);
    expect(valid.valid).toBe(true);
    const other = await verifyAttestation({ bundleText: await sign({ ...good, predicateType: 'https://slsa.dev/provenance/v1' }), key: pair.publicKey, catalogueVersion: CATALOGUE_VERSION });
    expect(other.valid).toBe(false);
    expect(other.checks.find((c) => c.name === 'predicate type')).toMatchObject({ ok: false, detail: expect.stringMatching(/slsa\.dev.*not https:\/\/in-toto\.io\/attestation\/test-result\/v0\.1/) });
  });

  it('names a subject that differs and a report that is not the attested one', async () => {
    const outcome = await verifyAttestation({
      bundleText: await sign(good),
      key: pair.publicKey,
      catalogueVersion: CATALOGUE_VERSION,
      subject: { name: 'svc', digest: { sha256: 'cd'.repeat(32) } },
      report: Buffer.from('{}'),
    });
    expect(outcome.checks.filter((c) => c.ok === false).map((c) => c.name)).toEqual(['subject', 'report']);
  });
});
