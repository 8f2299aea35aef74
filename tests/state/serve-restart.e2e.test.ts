/**
 * `serve --state-dir` as an SRE's soak rig uses it: killed with SIGKILL (no shutdown code runs) and started
 * again on the same directory, it is the same service: the profile written by the first start still gets a
 * token and signs webhooks, and every event ID it answered 200 before the kill answers 409 after it, also
 * when the kill lands in the middle of a load. A bad or busy directory is a clear exit 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli, type StartedProcess } from '../cli/support.js';
import { call, uuid, type SandboxProfile } from '../reference/support/wire.js';
import { answersTo, kill9, serveOn as serveState, webhook } from './support.js';

const root = mkdtempSync(join(tmpdir(), 'ac-state-e2e-'));
const started: StartedProcess[] = [];
afterAll(async () => {
  for (const serve of started) await serve.stop();
  rmSync(root, { recursive: true, force: true });
});

const serveOn = (stateDir: string, out: string): ReturnType<typeof serveState> => serveState(stateDir, out, started);

async function token(profile: SandboxProfile): Promise<number> {
  const { clientId, clientSecret } = profile.credentials.primary;
  const response = await call(`${profile.baseUrl}/auth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
  });
  return response.status;
}

describe('serve --state-dir', () => {
  test('an event accepted, serve killed with SIGKILL and started again on the same DIR: 409, and the first profile still works', async () => {
    const stateDir = join(root, 'one');
    const { serve, profile } = await serveOn(stateDir, join(root, 'one-out'));
    expect(serve.output()).toContain(`state:     ${stateDir}`);
    const eventId = uuid();
    expect(await webhook(profile, eventId)).toBe(200);
    await kill9(serve);

    const again = await serveOn(stateDir, join(root, 'one-out-again'));
    // The profile written by the first start: same URL, same secrets, still valid.
    expect(again.profile).toEqual(profile);
    expect(await token(profile)).toBe(200);
    expect(await webhook(profile, eventId)).toBe(409);
    expect(await webhook(profile, eventId.toUpperCase())).toBe(409);
    expect(await webhook(profile, uuid())).toBe(200);
  }, 120_000);

  test('killed with SIGKILL in the middle of a load: every event answered 200 before the kill answers 409 after the restart', async () => {
    const stateDir = join(root, 'load');
    const { serve, profile } = await serveOn(stateDir, join(root, 'load-out'));
    const accepted: string[] = [];
    let sending = true;
    // 64 senders in a closed loop on 127.0.0.1, bounded: they stop at the kill (or after 3 000 events). With
    // 64 in flight, a claim that answered before its record was written was caught 2 runs of 2 (with 16,
    // 0 of 1): enough requests wait for each sync that the kill lands among answered, unwritten ones.
    const sender = async (): Promise<void> => {
      while (sending && accepted.length < 3000) {
        const eventId = uuid();
        const status = await webhook(profile, eventId).catch(() => 0);
        if (status === 200) accepted.push(eventId);
        else if (status !== 0) throw new Error(`unexpected ${status} during the load`);
      }
    };
    const senders = Promise.all(Array.from({ length: 64 }, sender));
    // Killed mid-way: once a few hundred events were accepted, with requests still in flight.
    const deadline = Date.now() + 30_000;
    while (accepted.length < 300 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await kill9(serve);
    sending = false;
    await senders;
    expect(accepted.length).toBeGreaterThanOrEqual(300);

    await serveOn(stateDir, join(root, 'load-out'));
    expect(await answersTo(profile, accepted)).toEqual({ 409: accepted.length });
  }, 180_000);

  test('a second serve on a DIR in use refuses (exit 2, STATE_DIR_LOCKED); a DIR that cannot be created is exit 2 (STATE_DIR)', async () => {
    const stateDir = join(root, 'busy');
    await serveOn(stateDir, join(root, 'busy-out'));
    const second = await runCli(['serve', '--state-dir', stateDir, '--out', join(root, 'busy-out-2')]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('STATE_DIR_LOCKED');
    expect(second.stderr).toContain('in use by another process');

    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    const bad = await runCli(['serve', '--state-dir', join(file, 'state'), '--out', join(root, 'bad-out')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('STATE_DIR');
    expect(bad.stderr).toContain('ENOTDIR');
  }, 120_000);

  test('a restart with settings the kept tenant was not made with is refused (exit 2, naming them)', async () => {
    const stateDir = join(root, 'settings');
    const { serve } = await serveOn(stateDir, join(root, 'settings-out'));
    await serve.stop();
    const other = await runCli(['serve', '--state-dir', stateDir, '--out', join(root, 'settings-out'), '--hooks']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--hooks false then, true now');
  }, 120_000);
});
