/**
 * The curl reproduction: secrets stay variables (named after what they stood for), and the command,
 * run by a real shell with those variables set, sends the recorded request to a 127.0.0.1 server.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../src/client/types.js';
import { curlCommand, curlVariables } from '../../src/reporters/curl.js';
import { exchange } from '../engine/support/fixtures.js';
import { skipUnless } from '../support/capabilities.js';

function hasCurl(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function recorded(url: string, headers: Record<string, string>, body: string): RecordedExchange {
  const base = exchange();
  return { ...base, request: { method: 'POST', url, headers, body, bodyBytes: Buffer.byteLength(body), bodyTruncated: false } };
}

describe('curlCommand', () => {
  it('replaces each [REDACTED] with a variable named after its header or field, and never holds a value', () => {
    const command = curlCommand(
      recorded(
        'http://127.0.0.1:1/webhooks/v1/listener',
        { authorization: 'Bearer [REDACTED]', 'x-webhook-signature': 'v1=[REDACTED]', 'content-length': '99' },
        `{"client_secret":"[REDACTED]","name":"it's"}&client_assertion=[REDACTED]`,
      ),
    );
    expect(curlVariables(command)).toEqual(['ACCESS_TOKEN', 'HMAC_SIGNATURE', 'CLIENT_SECRET', 'CLIENT_ASSERTION']);
    expect(command).not.toContain('[REDACTED]');
    expect(command).not.toContain('content-length');
    expect(command.startsWith("curl -sS -i -g -X POST 'http://127.0.0.1:1/webhooks/v1/listener'")).toBe(true);
  });

  it('treats credential headers as variables even when the recorder kept their values', () => {
    const command = curlCommand(
      recorded('http://127.0.0.1:1/hook', { authorization: 'Bearer eyJ.live.token', 'webhook-signature': 'lYRl3HkqmNdDD0f7L0JT9KzOoAF4w5IGZG55chkP6ms', cookie: 'sid=abc' }, '{}'),
    );
    expect(command).toContain(`-H 'authorization: Bearer '"$ACCESS_TOKEN"`);
    expect(command).toContain(`-H 'webhook-signature: '"$HMAC_SIGNATURE"`);
    expect(command).toContain(`-H 'cookie: '"$COOKIE"`);
    for (const value of ['eyJ.live.token', 'lYRl3Hkq', 'sid=abc']) expect(command).not.toContain(value);
  });

  it('says when the recorder cut the body', () => {
    const cut = { ...recorded('http://127.0.0.1:1/x', {}, 'abc'), request: { method: 'POST', url: 'http://127.0.0.1:1/x', headers: {}, body: 'abc', bodyBytes: 70_000, bodyTruncated: true } };
    expect(curlCommand(cut)).toMatch(/# body cut at 3 of 70000 bytes$/);
  });

  it('run by sh with the variables exported, sends the same method, path, headers and body', async (ctx) => {
    skipUnless(ctx, 'curl', hasCurl(), 'no curl on PATH');
    let seen: { req: IncomingMessage; body: string } | undefined;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen = { req, body };
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const command = curlCommand(
        recorded(
          `http://127.0.0.1:${port}/api/v1/apps/a%20b/owners?page_size=2&x='y'&f[0]={z}`,
          { authorization: 'Bearer [REDACTED]', 'content-type': 'application/x-www-form-urlencoded', 'x-note': `it's "quoted" $HOME` },
          "grant_type=client_credentials&client_secret=[REDACTED]&q=it's",
        ),
      );
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ACCESS_TOKEN: 'tok-123', CLIENT_SECRET: 's3cr3t' };
      await new Promise<void>((resolve, reject) =>
        execFile('sh', ['-c', command], { env, timeout: 20_000 }, (error) => (error ? reject(error) : resolve())),
      );
      expect(seen?.req.method).toBe('POST');
      expect(seen?.req.url).toBe("/api/v1/apps/a%20b/owners?page_size=2&x='y'&f[0]={z}");
      expect(seen?.req.headers.authorization).toBe('Bearer tok-123');
      expect(seen?.req.headers['x-note']).toBe(`it's "quoted" $HOME`);
      expect(seen?.body).toBe("grant_type=client_credentials&client_secret=s3cr3t&q=it's");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
