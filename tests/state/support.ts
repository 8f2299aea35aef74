/**
 * What the end-to-end tests of `serve --state-dir` share: a serve on a DIR, a SIGKILL as a crash gives it,
 * and a signed webhook of the profile's hmac listener.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startServe, type StartedProcess } from '../cli/support.js';
import { killTree } from '../load/support/load-cli.js';
import { hmacSignature, nowSeconds, type SandboxProfile } from '../reference/support/wire.js';

/** Starts serve on `stateDir` (profile under `out`); `started` collects it for the file's afterAll. */
export async function serveOn(stateDir: string, out: string, started: StartedProcess[], extra: string[] = []): Promise<{ serve: StartedProcess; profile: SandboxProfile }> {
  const profilePath = join(out, 'sandbox.target.json');
  rmSync(profilePath, { force: true });
  const serve = await startServe(['--state-dir', stateDir, '--out', out, ...extra], profilePath);
  started.push(serve);
  return { serve, profile: JSON.parse(readFileSync(profilePath, 'utf8')) as SandboxProfile };
}

/**
 * SIGKILL for serve as a crash or an OOM kill gives it: the supervisor and the child that serves (its own
 * process group, src/stop/supervisor.ts), so no shutdown code runs anywhere; then waits until every one is
 * gone (the LevelDB lock is the kernel's to release).
 */
export async function kill9(serve: StartedProcess): Promise<void> {
  const exited = new Promise((resolve) => serve.child.once('exit', resolve));
  const pids = killTree(serve.child.pid!);
  await exited;
  const until = Date.now() + 10_000;
  while (pids.some(alive) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(pids.filter(alive), 'processes left after SIGKILL').toEqual([]);
}

/** Running, not gone or a zombie waiting for a parent to reap it (it holds no lock or port any more). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** One signed webhook to the hmac listener: its status and body. */
export function webhookAnswer(profile: SandboxProfile, eventId: string): Promise<{ status: number; body: string }> {
  const { listenerId, secret } = profile.webhooks.hmac;
  const body = JSON.stringify({ user: 'u-1', action: 'offboard' });
  const timestamp = String(nowSeconds());
  return fetch(`${profile.baseUrl}/api/v1/webhooks/incoming/${listenerId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': eventId, 'webhook-signature': hmacSignature(secret, timestamp, eventId, body) },
    body,
    signal: AbortSignal.timeout(10_000),
  }).then(async (response) => ({ status: response.status, body: await response.text() }));
}

export async function webhook(profile: SandboxProfile, eventId: string): Promise<number> {
  return (await webhookAnswer(profile, eventId)).status;
}

/** How each of `eventIds` is answered now, counted by status (32 at a time). */
export async function answersTo(profile: SandboxProfile, eventIds: readonly string[]): Promise<Record<number, number>> {
  const answers: Record<number, number> = {};
  for (let i = 0; i < eventIds.length; i += 32) {
    for (const status of await Promise.all(eventIds.slice(i, i + 32).map((eventId) => webhook(profile, eventId)))) answers[status] = (answers[status] ?? 0) + 1;
  }
  return answers;
}
