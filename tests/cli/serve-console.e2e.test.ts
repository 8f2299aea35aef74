/**
 * `serve`'s console and `--list-mistakes`, from the built CLI: a line for each refused request with its
 * diagnosis (the same sentence as the answer), every request with `--verbose`, none with `--quiet`; the
 * list prints every code of the catalogue with its sentence.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hmacSign } from '../../src/crypto/index.js';
import { MISTAKES } from '../../src/sandbox/mistakes/index.js';
import type { SandboxProfile } from '../reference/support/wire.js';
import { runCli, startServe, type StartedProcess } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'ac-serve-console-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A webhook to the HMAC listener, keyed with the decoded secret when `wrong`. */
async function webhook(profile: SandboxProfile, wrong: boolean): Promise<{ status: number; json: Record<string, unknown> }> {
  const { listenerId, secret } = profile.webhooks.hmac;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const eventId = randomUUID();
  const body = '{"user":"u-1"}';
  const signature = hmacSign({ secret, timestamp, eventId, body, decodedKey: wrong });
  const response = await fetch(`${profile.baseUrl}/api/v1/webhooks/incoming/${listenerId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': eventId, 'webhook-signature': signature },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Waits (bounded) until the output holds `text`. */
async function printed(serve: StartedProcess, text: string, withinMs = 5000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!serve.output().includes(text)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

async function served(name: string, flags: string[], use: (serve: StartedProcess, profile: SandboxProfile) => Promise<void>): Promise<void> {
  const profilePath = join(dir, `${name}.target.json`);
  const serve = await startServe(['--profile-out', profilePath, ...flags], profilePath);
  try {
    await use(serve, JSON.parse(readFileSync(profilePath, 'utf8')) as SandboxProfile);
  } finally {
    await serve.stop();
  }
}

describe('serve console lines', () => {
  it('by default: a line for the refused request with its diagnosis, none for the accepted one; never the secret', async () => {
    await served('default', [], async (serve, profile) => {
      expect(serve.output()).toContain("refusals:  each names the client's mistake");
      const ok = await webhook(profile, false);
      expect(ok.status).toBe(200);
      const refused = await webhook(profile, true);
      expect([refused.status, refused.json.mistake]).toEqual([401, 'hmac-key-decoded-secret']);
      const line = ` POST /api/v1/webhooks/incoming/${profile.webhooks.hmac.listenerId} listener ${profile.webhooks.hmac.listenerId} 401 hmac-key-decoded-secret: ${String(refused.json.error_description)}\n`;
      expect(await printed(serve, line)).toBe(true);
      expect(serve.output()).not.toContain(` listener ${profile.webhooks.hmac.listenerId} 200`);
      expect(serve.output()).not.toContain(profile.webhooks.hmac.secret);
    });
  });

  it('--verbose prints the accepted request too; --quiet prints neither', async () => {
    await served('verbose', ['--verbose'], async (serve, profile) => {
      expect((await webhook(profile, false)).status).toBe(200);
      expect(await printed(serve, ` listener ${profile.webhooks.hmac.listenerId} 200\n`)).toBe(true);
    });
    await served('quiet', ['--quiet'], async (serve, profile) => {
      const before = serve.output();
      expect((await webhook(profile, true)).status).toBe(401);
      expect((await webhook(profile, false)).status).toBe(200);
      // Nothing comes: waited for as long as a line takes to come above.
      expect(await printed(serve, 'hmac-key-decoded-secret', 1000)).toBe(false);
      expect(serve.output()).toBe(before);
    });
  });
});

describe('serve --list-mistakes', () => {
  it('prints every code with its area, statuses and sentence, and exits 0', async () => {
    const result = await runCli(['serve', '--list-mistakes']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`${MISTAKES.length} client mistakes: the code is the "mistake" field of a refused answer; docs/sandbox.md#CODE explains it`);
    for (const mistake of MISTAKES) {
      const line = result.stdout.split('\n').find((l) => l.startsWith(`${mistake.code} `));
      expect(line, mistake.code).toContain(` ${mistake.area} `);
      expect(line).toContain(`: ${mistake.sentence}`);
    }
  });
});
