/**
 * `access-conformance send` end to end against a spawned `serve`: the answers service.md gives (200, 409 for
 * the same event ID, 401 with --break signature, 400 for a stale timestamp), the curl of --dry-run, and bad
 * input refused with exit 2, a clear message and no secret in the output.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showResponseBody, SHOWN_RESPONSE_BYTES } from '../../src/cli/commands/send-text.js';
import { BIN, ROOT, cleanEnv, runCli, startServe, type CliResult } from './support.js';

interface Profile {
  credentials: Record<string, { clientSecret: string }>;
  webhooks: Record<string, { listenerId: string; secret?: string; signingKeys?: Array<Record<string, string>> }>;
  hooks?: { token: string };
}

let dir: string;
let profilePath: string;
let profile: Profile;
let serve: Awaited<ReturnType<typeof startServe>>;

/** Every secret value of the profile: none may appear in any output of send. */
function secretsOf(p: Profile): string[] {
  const values = Object.values(p.credentials).flatMap((c) => [c.clientSecret, c.clientSecret.split(':')[3] as string]);
  for (const listener of Object.values(p.webhooks)) {
    if (listener.secret) values.push(listener.secret);
    for (const key of listener.signingKeys ?? []) for (const name of ['d', 'p', 'q', 'dp', 'dq', 'qi']) if (key[name]) values.push(key[name] as string);
  }
  if (p.hooks) values.push(p.hooks.token);
  return values;
}

function expectNoSecret(result: CliResult): void {
  for (const secret of secretsOf(profile)) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

const send = (...args: string[]): Promise<CliResult> => runCli(['send', '--profile', profilePath, ...args], { timeoutMs: 60_000 });
const statusOf = (result: CliResult): number => Number(/^HTTP (\d{3})$/m.exec(result.stdout)?.[1]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-send-'));
  profilePath = join(dir, 'sandbox.target.json');
  serve = await startServe(['--profile-out', profilePath], profilePath);
  profile = JSON.parse(await readFile(profilePath, 'utf8')) as Profile;
}, 90_000);

afterAll(async () => {
  await serve?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('send: what the target answers', () => {
  it('200, then 409 for the same event ID, then 401 with --break signature (HMAC)', async () => {
    const eventId = '0b6c2f1e-5d0a-4c1b-9f3e-2a7d8c9e1f00';
    const first = await send('--listener', 'hmac', '--data', '{"user":"u-1","action":"offboard"}', '--event-id', eventId);
    expect(first.code, first.stderr).toBe(0);
    expect(statusOf(first)).toBe(200);
    expect(first.stdout).toContain(eventId);
    const again = await send('--listener', 'hmac', '--data', '{"user":"u-1","action":"offboard"}', '--event-id', eventId);
    expect(again.code).toBe(1);
    expect(statusOf(again)).toBe(409);
    const forged = await send('--listener', 'hmac', '--data', '{"user":"u-1"}', '--break', 'signature');
    expect(forged.code).toBe(1);
    expect(statusOf(forged)).toBe(401);
    for (const result of [first, again, forged]) expectNoSecret(result);
  }, 120_000);

  it('JWT listener: 200 (send serves the JWKS the profile names), 401 with --break signature', async () => {
    const ok = await send('--listener', 'jwt', '--data', '{"x":1}');
    expect(statusOf(ok), ok.stdout + ok.stderr).toBe(200);
    const forged = await send('--listener', 'jwt', '--data', '{"x":1}', '--break', 'signature');
    expect(statusOf(forged)).toBe(401);
    expectNoSecret(ok);
    expectNoSecret(forged);
  }, 120_000);

  it('--break timestamp and --break event-id give 400; --raw sends invalid JSON and gets 400', async () => {
    expect(statusOf(await send('--listener', 'hmac', '--data', '{}', '--break', 'timestamp'))).toBe(400);
    expect(statusOf(await send('--listener', 'hmac', '--data', '{}', '--break', 'event-id'))).toBe(400);
    expect(statusOf(await send('--listener', 'hmac', '--data', '{not json', '--raw'))).toBe(400);
  }, 120_000);

  it('reads the body from a file and from stdin', async () => {
    const file = join(dir, 'event.json');
    await writeFile(file, '{"from":"file"}');
    expect(statusOf(await send('--listener', 'hmac', '--file', file))).toBe(200);
    const piped = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'send', '--profile', profilePath, '--listener', 'hmacSecond', '--file', '-'], { cwd: ROOT, env: cleanEnv() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end('{"from":"stdin"}');
    });
    expect(statusOf(piped), piped.stderr).toBe(200);
  }, 120_000);

  it('--dry-run prints a curl command with the signature but not the HMAC secret, and sends nothing', async () => {
    const eventId = '7d3f0c2a-1b4e-4a5f-8c6d-9e0f1a2b3c4d';
    const dry = await send('--listener', 'hmac', '--data', '{"it\'s":"quoted"}', '--event-id', eventId, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks\/incoming\/[^']+'/m);
    expect(dry.stdout).toMatch(/-H 'webhook-signature: [A-Za-z0-9_-]{43}'/);
    expect(dry.stdout).toContain(`--data-binary '{"it'\\''s":"quoted"}'`);
    expectNoSecret(dry);
    // Nothing was sent: the event ID is still fresh.
    expect(statusOf(await send('--listener', 'hmac', '--data', '{}', '--event-id', eventId))).toBe(200);
  }, 120_000);
});

describe('send: bad input is exit 2 with a clear message and no secret', () => {
  it('an unknown listener key', async () => {
    const result = await send('--listener', 'nope', '--data', '{}');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown listener key "nope"/);
    expect(result.stderr).toMatch(/hmac, hmacSecond/);
    expectNoSecret(result);
  });

  it('a listener key that looks like a pasted secret is not echoed', async () => {
    const pasted = profile.webhooks.hmac!.secret as string;
    // `=`: a random base64url secret starts with "-" one time in 64, and a separate word would then be read
    // as a flag, not as the listener's value (the flake a rehearsal met).
    const result = await send(`--listener=${pasted}`, '--data', '{}');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown listener key (not shown)');
    expectNoSecret(result);
  });

  it('a body over the listener limit', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(70_000) });
    const result = await send('--listener', 'hmac', '--data', big);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/larger than the listener's limit of 65536 bytes/);
    expectNoSecret(result);
  });

  it('invalid JSON without --raw', async () => {
    const result = await send('--listener', 'hmac', '--data', '{"user":');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not valid JSON/);
    expect(result.stderr).toMatch(/--raw/);
    expectNoSecret(result);
  });

  it('a profile without that listener', async () => {
    const trimmed = JSON.parse(await readFile(profilePath, 'utf8')) as Profile;
    delete trimmed.webhooks.inactive;
    const path = join(dir, 'trimmed.target.json');
    await writeFile(path, JSON.stringify(trimmed), { mode: 0o600 });
    for (const name of ['jwks-cert', 'jwks-key']) {
      await writeFile(join(dir, `trimmed.${name}.pem`), await readFile(join(dir, `sandbox.${name}.pem`)));
    }
    const result = await runCli(['send', '--profile', path, '--listener', 'inactive', '--data', '{}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the profile has no webhooks\.inactive listener/);
    expectNoSecret(result);
  });

  it('a header value with a line break, and --break expired on an HMAC listener', async () => {
    const injected = await send('--listener', 'hmac', '--data', '{}', '--event-id', 'a\r\nx-evil: 1');
    expect(injected.code).toBe(2);
    expect(injected.stderr).toMatch(/--event-id must be printable ASCII/);
    const expired = await send('--listener', 'hmac', '--data', '{}', '--break', 'expired');
    expect(expired.code).toBe(2);
    expect(expired.stderr).toMatch(/JWT listeners only/);
  });
});

describe('send: the response is hostile text', () => {
  it('control characters and bidi overrides are escaped, the size is capped', () => {
    expect(showResponseBody('ok\u001b[31mred\u0007\u202Eevil')).toBe('ok\\x1b[31mred\\x07\\u202eevil');
    const long = showResponseBody('y'.repeat(SHOWN_RESPONSE_BYTES + 100));
    expect(long).toContain('… 100 more bytes not shown');
    expect(long.startsWith('y'.repeat(SHOWN_RESPONSE_BYTES))).toBe(true);
  });
});

describe('docs/sandbox.md', () => {
  it('documents every send flag and every --break name', async () => {
    const { SEND_OPTIONS, BREAKS } = await import('../../src/cli/commands/send-options.js');
    const doc = await readFile(join(ROOT, 'docs', 'sandbox.md'), 'utf8');
    for (const flag of Object.keys(SEND_OPTIONS)) expect(doc).toContain(`\`--${flag}`);
    for (const name of Object.keys(BREAKS)) expect(doc).toContain(`\`${name}\``);
  });
});
