/**
 * Keyless `run --attest` and `verify --certificate-identity --certificate-oidc-issuer`, offline: Sigstore's
 * own mock services (@sigstore/mock: a Fulcio CA with its CT log, and Rekor) answer behind one HTTP server
 * on 127.0.0.1, the OIDC token is the CI's (SIGSTORE_ID_TOKEN, as a runner sets it), and verify checks the
 * bundle against a trusted_root.json naming those services' keys. No request leaves this machine.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fulcioHandler, initializeCA, initializeCTLog, initializeTLog, rekorHandler, type HandlerFn } from '@sigstore/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../cli/support.js';
import { keyPair, newKeyPair, statementOf, tampered, type SerializedBundle } from './support.js';

const IDENTITY = 'https://github.com/acme/access-service/.github/workflows/conformance.yml@refs/heads/main';
const ISSUER = 'https://token.actions.githubusercontent.com';

const dir = mkdtempSync(join(tmpdir(), 'ac-keyless-'));
let server: Server;
let base = '';
const requests: string[] = [];

/** An OIDC token as a CI runner hands it over; the mock Fulcio reads its claims (it checks no signature). */
function identityToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: ISSUER, sub: IDENTITY, aud: 'sigstore', iat: now, exp: now + 600 })}.c2lnbmF0dXJl`;
}

/**
 * Rekor's own step for a `dsse` entry, which the mock leaves out (it logs a proposed entry as sent): the
 * log keeps the envelope's and the payload's SHA-256 and each signature with its verifier, not the
 * envelope (rekor's pkg/types/dsse/v0.0.1). The entry it logs, and returns, is then the one the public
 * instance would; anything else passes unchanged.
 */
function canonicalDsseEntry(body: string): string {
  const proposed = JSON.parse(body) as { kind?: string; spec?: { proposedContent?: { envelope: string; verifiers: string[] } } };
  const content = proposed.spec?.proposedContent;
  if (proposed.kind !== 'dsse' || content === undefined) return body;
  const envelope = JSON.parse(content.envelope) as { payload: string; signatures: Array<{ sig: string }> };
  const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
  return JSON.stringify({
    apiVersion: '0.0.1',
    kind: 'dsse',
    spec: {
      envelopeHash: { algorithm: 'sha256', value: sha256(content.envelope) },
      payloadHash: { algorithm: 'sha256', value: sha256(Buffer.from(envelope.payload, 'base64')) },
      signatures: envelope.signatures.map((signature) => ({ signature: signature.sig, verifier: content.verifiers[0] })),
    },
  });
}

let run: CliResult;
let bundle: SerializedBundle;
let bundleFile = '';
let reportFile = '';
let trustedRoot = '';

beforeAll(async () => {
  const keys = () => newKeyPair('ec', { namedCurve: 'P-256' });
  const ctlog = await initializeCTLog(await keys());
  const ca = await initializeCA(await keys(), ctlog);
  const routes = new Map<string, HandlerFn>();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      requests.push(`${req.method} ${path}`);
      const handler = req.method === 'POST' ? routes.get(path) : undefined;
      if (handler === undefined) {
        res.writeHead(404).end();
        return;
      }
      handler(Buffer.concat(chunks).toString('utf8')).then(
        ({ statusCode, response, contentType }) => res.writeHead(statusCode, { 'content-type': contentType ?? 'text/plain' }).end(response),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tlog = await initializeTLog(base, await keys());
  const fulcio = fulcioHandler(ca);
  const rekor = rekorHandler(tlog);
  routes.set(fulcio.path, fulcio.fn);
  routes.set(rekor.path, (body) => rekor.fn(canonicalDsseEntry(body)));

  const b64 = (bytes: ArrayBufferView | Buffer) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const since = { start: '2020-01-01T00:00:00Z' };
  trustedRoot = join(dir, 'trusted_root.json');
  writeFileSync(
    trustedRoot,
    JSON.stringify({
      mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
      tlogs: [
        {
          baseUrl: base,
          hashAlgorithm: 'SHA2_256',
          publicKey: { rawBytes: b64(tlog.publicKey), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: since },
          logId: { keyId: createHash('sha256').update(tlog.publicKey).digest('base64') },
        },
      ],
      certificateAuthorities: [{ subject: { organization: 'sigstore.mock', commonName: 'sigstore' }, uri: base, certChain: { certificates: [{ rawBytes: b64(ca.rootCertificate) }] }, validFor: since }],
      ctlogs: [
        {
          baseUrl: base,
          hashAlgorithm: 'SHA2_256',
          publicKey: { rawBytes: b64(ctlog.publicKey), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: since },
          logId: { keyId: b64(ctlog.logID) },
        },
      ],
      timestampAuthorities: [],
    }),
  );

  const out = join(dir, 'out');
  run = await runCli(['run', '--attest', '--fulcio-url', base, '--rekor-url', base, '--only', 'TOK-*', '--out', out], {
    env: { SIGSTORE_ID_TOKEN: identityToken(), ACTIONS_ID_TOKEN_REQUEST_URL: undefined, HTTP_PROXY: undefined, HTTPS_PROXY: undefined, http_proxy: undefined, https_proxy: undefined },
    timeoutMs: 120_000,
  });
  bundleFile = join(out, 'attestation.sigstore.json');
  reportFile = join(out, 'report.json');
  try {
    bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as SerializedBundle;
  } catch (error) {
    throw new Error(`no attestation: exit ${run.code}\n${run.stdout.slice(-2000)}\n${run.stderr}`, { cause: error });
  }
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (!process.env.AC_KEEP) rmSync(dir, { recursive: true, force: true });
});

const verify = (args: string[]) => runCli(['verify', ...args], { timeoutMs: 30_000 });

describe('keyless run --attest through Sigstore (mock Fulcio and Rekor on 127.0.0.1)', () => {
  it('signs with a Fulcio certificate for the CI identity and logs the signature in Rekor', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('signed keyless through Sigstore');
    expect(requests).toEqual(['POST /api/v2/signingCert', 'POST /api/v1/log/entries']);
    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(bundle.verificationMaterial.certificate?.rawBytes).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(bundle.verificationMaterial.tlogEntries).toHaveLength(1);
    expect(statementOf(bundle).predicate.result).toBe('PASSED');
  });

  it('verify accepts it with the identity and issuer, against the trusted root', async () => {
    const ok = await verify([bundleFile, '--certificate-identity', IDENTITY, '--certificate-oidc-issuer', ISSUER, '--trusted-root', trustedRoot, '--report', reportFile]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`keyless: a certificate for ${IDENTITY} from ${ISSUER}`);
    expect(ok.stdout).toContain(`valid (signed by ${IDENTITY} (${ISSUER}))`);
  });

  it('verify exits 1 naming the signature for another identity, another issuer, or a changed payload', async () => {
    const other = await verify([bundleFile, '--certificate-identity', 'https://github.com/mallory/fork/.github/workflows/x.yml@refs/heads/main', '--certificate-oidc-issuer', ISSUER, '--trusted-root', trustedRoot]);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/FAIL +signature +the certificate's identity or issuer is not the one given/);
    const issuer = await verify([bundleFile, '--certificate-identity', IDENTITY, '--certificate-oidc-issuer', 'https://accounts.example', '--trusted-root', trustedRoot]);
    expect(issuer.code).toBe(1);
    expect(issuer.stdout).toMatch(/INVALID: signature/);
    const file = join(dir, 'tampered.json');
    writeFileSync(file, JSON.stringify(tampered(bundle, 'payload')));
    const changed = await verify([file, '--certificate-identity', IDENTITY, '--certificate-oidc-issuer', ISSUER, '--trusted-root', trustedRoot]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/FAIL +signature +the envelope's signature does not verify over its payload/);
  });

  it('when Sigstore does not answer, the reports stay and the run ends ATTEST_FAILED, exit 2, with no bundle', async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const out = join(dir, 'unreachable');
    const result = await runCli(['run', '--attest', '--fulcio-url', `http://127.0.0.1:${port}`, '--rekor-url', base, '--only', 'TOK-01', '--out', out], {
      env: { SIGSTORE_ID_TOKEN: identityToken(), ACTIONS_ID_TOKEN_REQUEST_URL: undefined },
      timeoutMs: 120_000,
    });
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`error\\[ATTEST_FAILED\\] at --attest: keyless signing failed \\(Fulcio http://127\\.0\\.0\\.1:${port}`));
    expect(result.stderr).not.toMatch(/eyJ/);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
    expect(existsSync(join(out, 'attestation.sigstore.json'))).toBe(false);
  }, 120_000);

  it('a keyless bundle is not taken for a keyed one, nor the reverse', async () => {
    const pub = join(dir, 'some.pub.pem');
    writeFileSync(pub, (await keyPair('ed25519')).publicPem);
    const withKey = await verify([bundleFile, '--key', pub]);
    expect(withKey.code).toBe(1);
    expect(withKey.stdout).toMatch(/FAIL +signature +the bundle was signed keyless/);
  });
});
