/**
 * `run --attest --signing-key` against the embedded sandbox, then `verify --key`, as an implementer and a
 * customer use them (the built CLI, in child processes, on 127.0.0.1 only): the bundle verifies; one byte
 * changed in the payload, the signature or the attested report makes `verify` exit 1 naming it; an
 * independent DSSE verification (PAE and node:crypto here, nothing of src/) accepts it; the statement's
 * lists match report.json's results one for one; and in-toto's Python crypto library (Debian's
 * python3-securesystemslib) verifies it too where it is installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../cli/support.js';
import { reportValidator } from '../reporters/validators.js';
import { dsseVerifies, expectedList, keyPair, nameOf, newKeyPair, statementOf, tampered, type SerializedBundle } from './support.js';
import { skipUnless } from '../support/capabilities.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-attest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ed = await keyPair('ed25519');
const p256 = await keyPair('p256');
writeFileSync(join(dir, 'ed.pem'), ed.privatePem);
writeFileSync(join(dir, 'ed.pub.pem'), ed.publicPem);
writeFileSync(join(dir, 'p256.pub.pem'), p256.publicPem);
const SUBJECT = `ghcr.io/acme/access-service@sha256:${createHash('sha256').update('release 1.2.0').digest('hex')}`;

interface Run {
  out: string;
  result: CliResult;
  bundle: SerializedBundle;
  bundleFile: string;
  reportFile: string;
  report: { strict: boolean; results: Array<{ id: string; operation?: { method: string; path: string }; level: string; state: string }> };
}

async function attestedRun(name: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const out = join(dir, name);
  const result = await runCli(['run', '--attest', '--out', out, ...args], { env, timeoutMs: 150_000 });
  const bundleFile = join(out, 'attestation.sigstore.json');
  const reportFile = join(out, 'report.json');
  let bundle: SerializedBundle;
  try {
    bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as SerializedBundle;
  } catch (error) {
    throw new Error(`no attestation: exit ${result.code}\n${result.stdout.slice(-2000)}\n${result.stderr}`, { cause: error });
  }
  return { out, result, bundle, bundleFile, reportFile, report: JSON.parse(readFileSync(reportFile, 'utf8')) };
}

function verifyCli(args: string[]): Promise<CliResult> {
  return runCli(['verify', ...args], { timeoutMs: 30_000 });
}

let conformant: Run;
let failing: Run;

beforeAll(async () => {
  // The whole catalogue against the reference, signed with Ed25519 from a file.
  conformant = await attestedRun('conformant', ['--signing-key', join(dir, 'ed.pem')]);
  // Failures, warnings and a skip (a fault and a variant), the key as {"env": NAME} (P-256), a named subject.
  failing = await attestedRun(
    'failing',
    ['--fault', 'secret-wrong-prefix', '--fault', 'token-errors-fastapi-detail', '--only', 'TOK-*,CRED-*,OPS-*', '--signing-key', '{"env": "AC_TEST_SIGNING_KEY"}', '--subject', SUBJECT],
    { AC_TEST_SIGNING_KEY: p256.privatePem },
  );
}, 300_000);

describe('run --attest --signing-key', () => {
  it('keeps the run\'s exit code and says where the attestation is and what it certifies', () => {
    expect(conformant.result.code, conformant.result.stderr).toBe(0);
    expect(failing.result.code, failing.result.stderr).toBe(1);
    expect(conformant.result.stdout).toContain(`attestation: ${conformant.bundleFile} (PASSED`);
    expect(failing.result.stdout).toContain(`attestation: ${failing.bundleFile} (FAILED`);
    expect(failing.result.stdout).toContain(`subject ${SUBJECT}`);
  });

  it('writes a Sigstore bundle v0.3 with one DSSE signature over an in-toto test-result statement', () => {
    for (const run of [conformant, failing]) {
      expect(run.bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
      expect(run.bundle.dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json');
      expect(run.bundle.dsseEnvelope.signatures).toHaveLength(1);
      const statement = statementOf(run.bundle);
      expect(statement._type).toBe('https://in-toto.io/Statement/v1');
      expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
    }
  });

  it('an independent DSSE verification (PAE and node:crypto in this test) accepts it, with the right key only', () => {
    expect(dsseVerifies(conformant.bundle, ed.publicKey)).toBe(true);
    expect(dsseVerifies(failing.bundle, p256.publicKey)).toBe(true);
    expect(dsseVerifies(conformant.bundle, p256.publicKey)).toBe(false);
    expect(dsseVerifies(tampered(conformant.bundle, 'payload'), ed.publicKey)).toBe(false);
  });

  it('the statement\'s lists match report.json\'s results one for one', () => {
    for (const run of [conformant, failing]) {
      const { predicate } = statementOf(run.bundle);
      const lists = {
        passedTests: predicate.passedTests,
        warnedTests: predicate.warnedTests,
        failedTests: predicate.failedTests,
        skippedTests: predicate.accessConformance.skippedTests.map((t) => t.name),
        blockedTests: predicate.accessConformance.blockedTests.map((t) => t.name),
      };
      const expected = { passedTests: [] as string[], warnedTests: [] as string[], failedTests: [] as string[], skippedTests: [] as string[], blockedTests: [] as string[] };
      for (const result of run.report.results) expected[expectedList(result, run.report.strict)].push(nameOf(result));
      expect(lists).toEqual(expected);
      expect(predicate.accessConformance.results).toBe(run.report.results.length);
      expect(new Set(Object.values(lists).flat()).size).toBe(run.report.results.length);
    }
    const failingLists = statementOf(failing.bundle).predicate;
    // The run had each kind: a MUST failure, SHOULD warnings, a skip, per-operation results.
    expect(failingLists.failedTests).toContain('CRED-05');
    expect(failingLists.warnedTests).toContain('TOK-26');
    expect(failingLists.accessConformance.skippedTests.length).toBeGreaterThan(0);
    expect(failingLists.passedTests.some((name) => /^OPS-\d+@(GET|POST) \//.test(name))).toBe(true);
    expect(statementOf(conformant.bundle).predicate.result).toBe('PASSED');
    expect(failingLists.result).toBe('FAILED');
  });

  it('binds report.json by its digest, names the subject and the configuration with digests', () => {
    const statement = statementOf(failing.bundle);
    expect(statement.predicate.accessConformance.report.digest.sha256).toBe(createHash('sha256').update(readFileSync(failing.reportFile)).digest('hex'));
    expect(statement.subject).toEqual([{ name: SUBJECT.split('@sha256:')[0], digest: { sha256: SUBJECT.split('@sha256:')[1] } }]);
    const names = statement.predicate.configuration.map((d) => d.name);
    expect(names).toEqual(['catalogue', 'target profile', 'openapi description', 'spec/service.md', 'spec/rulings.md', 'access-conformance', 'options']);
    for (const descriptor of statement.predicate.configuration) expect(descriptor.digest?.sha256, descriptor.name).toMatch(/^[0-9a-f]{64}$/);
    expect(statement.predicate.configuration.find((d) => d.name === 'options')?.annotations).toEqual({ baseline: null, only: ['TOK-*', 'CRED-*', 'OPS-*'], skip: [], strict: false });
    // The profile file beside it is the hashed document, and holds no secret of the run.
    const profileFile = readFileSync(join(failing.out, 'attestation.profile.json'));
    expect(createHash('sha256').update(profileFile).digest('hex')).toBe(statement.predicate.configuration[1]!.digest!.sha256);
    expect(JSON.parse(profileFile.toString('utf8')).credentials.primary.clientSecret).toBe('[removed]');
    // The reference's Client Secrets start with secret-token: (the conformant run's; the fault changes the prefix).
    const conformantProfile = readFileSync(join(conformant.out, 'attestation.profile.json'), 'utf8');
    expect(conformantProfile).toContain('"clientSecret":"[removed]"');
    expect(conformantProfile).not.toContain('secret-token:');
    expect(conformantProfile).not.toContain('"secrets"');
  });

  it('report.json says plainly what was certified: the description\'s digest under baseUrl without --subject', async () => {
    const report = JSON.parse(readFileSync(conformant.reportFile, 'utf8'));
    const validate = await reportValidator();
    expect(validate(report)).toEqual([]);
    expect(validate(failing.report)).toEqual([]);
    expect((failing.report as unknown as { attestation: { from: string } }).attestation.from).toBe('subject');
    expect(report.attestation.from).toBe('description');
    expect(report.attestation.note).toMatch(/Neither --subject nor --image was given/);
    expect(report.attestation.subject.name).toBe(report.target.baseUrl);
    expect(report.attestation.subject.digest.sha256).toBe(report.operations.description.sha256);
    expect(statementOf(conformant.bundle).subject[0]).toEqual(report.attestation.subject);
  });
});

describe('verify', () => {
  it('accepts the bundle with its public key, subject and report (exit 0)', async () => {
    const ok = await verifyCli([conformant.bundleFile, '--key', join(dir, 'ed.pub.pem'), '--report', conformant.reportFile]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/ok +signature/);
    expect(ok.stdout).toMatch(/ok +report +report\.json is the attested one/);
    const named = await verifyCli([failing.bundleFile, '--key', join(dir, 'p256.pub.pem'), '--subject', SUBJECT, '--report', failing.reportFile, '--format', 'json']);
    expect(named.code, named.stdout + named.stderr).toBe(0);
    const parsed = JSON.parse(named.stdout) as { valid: boolean; checks: Array<{ name: string; ok: boolean | null }> };
    expect(parsed.valid).toBe(true);
    expect(parsed.checks.map((c) => [c.name, c.ok])).toEqual([
      ['bundle', true],
      ['signature', true],
      ['statement', true],
      ['predicate type', true],
      ['subject', true],
      ['catalogue', true],
      ['report', true],
    ]);
  });

  it.each(['payload', 'signature'] as const)('exits 1 naming the signature when one byte of the %s changed', async (what) => {
    const file = join(dir, `tampered-${what}.json`);
    writeFileSync(file, JSON.stringify(tampered(conformant.bundle, what)));
    const result = await verifyCli([file, '--key', join(dir, 'ed.pub.pem')]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(/FAIL +signature +the envelope's signature does not verify over its payload: the payload or the signature was changed/);
    expect(result.stdout).toMatch(/INVALID: signature/);
  });

  it('exits 1 naming the report when one byte of the attested report changed', async () => {
    const bytes = readFileSync(conformant.reportFile);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    const file = join(dir, 'report-changed.json');
    writeFileSync(file, bytes);
    const result = await verifyCli([conformant.bundleFile, '--key', join(dir, 'ed.pub.pem'), '--report', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL +report +report\.json has sha256 [0-9a-f]{64}, the attested one [0-9a-f]{64}: it was changed/);
    expect(result.stdout).toMatch(/INVALID: report$/m);
  });

  it('exits 1 naming each check that fails: another key, another subject, another catalogue version', async () => {
    const result = await verifyCli([
      conformant.bundleFile,
      '--key',
      join(dir, 'p256.pub.pem'),
      '--subject',
      SUBJECT,
      '--catalogue-version',
      '0.9.0',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/INVALID: signature, subject, catalogue$/m);
    expect(result.stdout).toMatch(/FAIL +subject +the attestation is about http:\/\/127\.0\.0\.1:\d+@sha256:[0-9a-f]{64}, not ghcr\.io/);
    expect(result.stdout).toMatch(/FAIL +catalogue +catalogue \d+\.\d+\.\d+, not 0\.9\.0/);
  });

  it('exits 2 for usage: no key, both kinds, a missing bundle; and 1 for a file that is no bundle', async () => {
    expect((await verifyCli([conformant.bundleFile])).code).toBe(2);
    expect((await verifyCli([conformant.bundleFile, '--key', join(dir, 'ed.pub.pem'), '--certificate-identity', 'x', '--certificate-oidc-issuer', 'y'])).code).toBe(2);
    expect((await verifyCli([join(dir, 'nothing.json'), '--key', join(dir, 'ed.pub.pem')])).code).toBe(2);
    const notBundle = await verifyCli([conformant.reportFile, '--key', join(dir, 'ed.pub.pem')]);
    expect(notBundle.code).toBe(1);
    expect(notBundle.stdout).toMatch(/FAIL +bundle +not a Sigstore bundle/);
  });
});

describe('run --attest usage', () => {
  it('refuses a key it cannot sign with before the run starts, and attest flags without --attest', async () => {
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, (await newKeyPair('rsa', { modulusLength: 2048 })).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const bad = await runCli(['run', '--attest', '--signing-key', rsa, '--out', join(dir, 'rsa-out')], { timeoutMs: 30_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/error\[KEY_INVALID\] at --signing-key: --signing-key: (the key is an RSA key|it is not a PEM private key)/);
    expect(bad.stdout).not.toContain('verdict:');
    const noAttest = await runCli(['run', '--signing-key', join(dir, 'ed.pem')], { timeoutMs: 30_000 });
    expect(noAttest.code).toBe(2);
    expect(noAttest.stderr).toContain('need --attest');
    // Keyless without any OIDC token: said before the run, with what to do.
    const keyless = await runCli(['run', '--attest', '--out', join(dir, 'keyless-out')], { timeoutMs: 30_000, env: { SIGSTORE_ID_TOKEN: undefined, ACTIONS_ID_TOKEN_REQUEST_URL: undefined } });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toMatch(/signs keyless, which needs an OIDC identity token/);
  });
});

const PYTHON = '/usr/bin/python3';
const sslib = spawnSync(PYTHON, ['-c', 'import securesystemslib.signer'], { encoding: 'utf8' });
const sslibMissing = sslib.error !== undefined || sslib.status !== 0;

describe('third-party verification: in-toto\'s securesystemslib (Debian python3-securesystemslib)', () => {
  it('verifies both bundles\' DSSE signatures, and refuses a changed payload', (ctx) => {
    skipUnless(ctx, 'securesystemslib', !sslibMissing, `${PYTHON} cannot import securesystemslib (apt-get install python3-securesystemslib; .ci/run installs it)`);
    const script = new URL('./verify_dsse.py', import.meta.url).pathname;
    const check = (bundle: string, key: string) => spawnSync(PYTHON, [script, bundle, key], { encoding: 'utf8', timeout: 30_000 });
    const ok = check(conformant.bundleFile, join(dir, 'ed.pub.pem'));
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^OK ed25519 https:\/\/in-toto\.io\/attestation\/test-result\/v0\.1 PASSED passed=\d+ warned=0 failed=0/);
    const p = check(failing.bundleFile, join(dir, 'p256.pub.pem'));
    expect(p.status, p.stdout + p.stderr).toBe(0);
    expect(p.stdout).toMatch(/^OK ecdsa-sha2-nistp256 \S+ FAILED/);
    const file = join(dir, 'tampered-python.json');
    writeFileSync(file, JSON.stringify(tampered(conformant.bundle, 'payload')));
    expect(check(file, join(dir, 'ed.pub.pem')).status).toBe(1);
  });
});
