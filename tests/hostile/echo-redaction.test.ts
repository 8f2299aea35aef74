/**
 * A target that echoes every credential it receives or issues (access tokens, the Authorization header,
 * client secrets and assertions, webhook JWTs and HMAC signatures, and the tokens it gave other workers) in
 * bodies, headers and error texts, raw, base64, base64url and hex: none of them, nor any secret of the
 * profile, appears in any output of the run (stdout, stderr, the four report files).
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_REPORTERS, afterRoot, hostileProfile, hostileServer, runHostile, type HostileHandler, type HostileServer } from './support.js';

/** Everything the target saw or minted that authenticates, by kind. */
const seen = {
  tokens: new Set<string>(),
  authorization: new Set<string>(),
  clientSecrets: new Set<string>(),
  assertions: new Set<string>(),
  webhookJwts: new Set<string>(),
  signatures: new Set<string>(),
};

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/** The shapes a value is echoed in, and searched for in the outputs. */
function forms(value: string): string[] {
  const out = [value, b64(value), b64(value).replace(/=+$/, ''), b64url(value), hex(value)];
  // A signature is base64url of digest bytes: its hex and standard base64 too.
  if (/^[A-Za-z0-9_-]{40,}$/.test(value)) {
    const bytes = Buffer.from(value, 'base64url');
    out.push(bytes.toString('hex'), bytes.toString('base64'));
  }
  return out;
}

function echoOf(values: string[]): Record<string, string[]> {
  return Object.fromEntries(values.map((value, index) => [`v${index}`, forms(value)]));
}

function formFields(req: { headers: Record<string, string | string[] | undefined> }, body: Buffer): Record<string, string> {
  const text = body.toString('utf8');
  if (String(req.headers['content-type'] ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

const echo: HostileHandler = (req, res, body) => {
  if (req.method === 'POST' && req.url?.startsWith('/auth/v1/token')) {
    const fields = formFields(req, body);
    if (fields.client_secret) seen.clientSecrets.add(fields.client_secret);
    if (fields.client_assertion) seen.assertions.add(fields.client_assertion);
    const token = `tok_${randomBytes(24).toString('base64url')}`;
    seen.tokens.add(token);
    const echoed = [fields.client_secret, fields.client_assertion].filter((v): v is string => typeof v === 'string' && v.length > 0);
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo-form': b64(body.toString('utf8')) });
    res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600, seen: echoOf(echoed), form: body.toString('utf8') }));
    return;
  }
  const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
  const signature = typeof req.headers['webhook-signature'] === 'string' ? req.headers['webhook-signature'] : undefined;
  const echoed: string[] = [];
  if (authorization) {
    seen.authorization.add(authorization);
    const credential = authorization.replace(/^\S+\s+/, '');
    if (/^eyJ/.test(credential)) seen.webhookJwts.add(credential);
    echoed.push(authorization, credential);
  }
  if (signature) {
    seen.signatures.add(signature);
    echoed.push(signature);
  }
  // Tokens issued to any worker, not only this request's: the cross-worker leak.
  const others = [...seen.tokens].slice(-4);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization) {
    headers['www-authenticate'] = `Bearer error="invalid_token", error_description="the token ${authorization} is not valid"`;
    headers['x-echo-auth'] = b64(authorization);
    headers['x-echo-auth-hex'] = hex(authorization);
  }
  if (signature) headers['x-echo-signature'] = `${signature} ${hex(signature)} ${Buffer.from(signature, 'base64url').toString('hex')}`;
  res.writeHead(401, headers);
  res.end(JSON.stringify({ error: `refused ${authorization ?? ''} ${signature ?? ''}`, seen: echoOf(echoed), others: echoOf(others) }));
};

let server: HostileServer;
let dir: string;
let outputs: Array<{ where: string; text: string }> = [];
let secrets: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-hostile-echo-'));
  server = await hostileServer(afterRoot(echo));
  const { path, material } = await hostileProfile(dir, server.url);
  secrets = material.all;
  const out = join(dir, 'reports');
  const result = await runHostile(['run', '--profile', path, ...ALL_REPORTERS, '--out', out, '--timeout', '3s', '--seed', 'echo'], {
    env: material.env,
    timeoutMs: 150_000,
  });
  outputs = [
    { where: 'stdout', text: result.stdout },
    { where: 'stderr', text: result.stderr },
  ];
  // Every file the run wrote, the reproductions under reproductions/ included.
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    outputs.push({ where: path.slice(out.length + 1), text: await readFile(path, 'utf8') });
  }
  // The target echoes what it got: the reproductions of its failures are searched like every report.
  expect(outputs.filter((output) => output.where.startsWith('reproductions/')).length).toBeGreaterThan(10);
  // The run itself decided checks (the target refuses everything): not a harness error, exit 1.
  expect(result.code, `${result.stdout.slice(-3000)}\n${result.stderr}`).toBe(1);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a target that echoes every credential', () => {
  it('was given and minted each kind (the test is not vacuous)', () => {
    expect(seen.tokens.size).toBeGreaterThan(0);
    expect(seen.authorization.size).toBeGreaterThan(0);
    expect(seen.clientSecrets.size).toBeGreaterThan(0);
    expect(seen.assertions.size).toBeGreaterThan(0);
    expect(seen.webhookJwts.size).toBeGreaterThan(0);
    expect(seen.signatures.size).toBeGreaterThan(0);
    expect(outputs.map((o) => o.where).filter((where) => !where.startsWith('reproductions/')).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'stderr', 'stdout', 'summary.md']);
    // The echoes did reach the reports (redacted): the failures show the exchanges.
    expect(outputs.find((o) => o.where === 'report.json')!.text).toContain('[REDACTED]');
  });

  const kinds: Array<[string, () => string[]]> = [
    ['access tokens (issued to every worker)', () => [...seen.tokens]],
    ['Authorization headers', () => [...seen.authorization]],
    ['client secrets sent', () => [...seen.clientSecrets]],
    ['client assertions', () => [...seen.assertions]],
    ['webhook JWTs', () => [...seen.webhookJwts]],
    ['HMAC signatures', () => [...seen.signatures]],
    ["the profile's secrets", () => secrets],
  ];
  for (const [kind, values] of kinds) {
    it(`no ${kind} in any output, raw, base64, base64url or hex`, () => {
      const leaks: string[] = [];
      for (const value of values()) {
        if (value.length < 8) continue;
        for (const form of forms(value)) {
          for (const output of outputs) if (output.text.includes(form)) leaks.push(`${output.where}: ${form.slice(0, 24)}… (${form.length} chars)`);
        }
      }
      expect(leaks).toEqual([]);
    });
  }
});
