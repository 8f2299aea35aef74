/**
 * `access-conformance serve` (the built CLI, hooks on) in a child process, and raw node:net clients for it:
 * one write of arbitrary bytes, the answers split by HTTP/1.1 framing, every wait bounded. Plus the check
 * every hostile case ends with: serve still alive, and a token, an owner-IDs call and a signed webhook
 * answered promptly. Only node:net, node:crypto and fetch: nothing of the harness, so its mistakes cannot hide.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { talk } from '../support/socket-talk.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'access-conformance.js');

/** The part of the profile `serve` writes that these tests read. */
export interface ServeProfile {
  baseUrl: string;
  credentials: { primary: { clientId: string; clientSecret: string } };
  apps: { owners: { appId: string } };
  webhooks: { hmac: { listenerId: string; secret: string } };
  hooks: { baseUrl: string; token: string };
}

export interface Serve {
  profile: ServeProfile;
  /** The profile file serve wrote, and its folder (removed on close): other tests write beside it. */
  profilePath: string;
  dir: string;
  port: number;
  /** What serve printed (stdout and stderr). */
  output(): string;
  alive(): boolean;
  close(): Promise<void>;
}

export async function startServe(seed: string): Promise<Serve> {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build:all` first (npm test does)');
  const dir = mkdtempSync(join(tmpdir(), 'ac-serve-hostile-'));
  const profilePath = join(dir, 'sandbox.target.json');
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--hooks', '--seed', seed, '--profile-out', profilePath], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 45_000;
  while (!/Press Ctrl-C/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start:\n${output}`);
    }
    await sleep(100);
  }
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as ServeProfile;
  return {
    profile,
    profilePath,
    dir,
    port: Number(new URL(profile.baseUrl).port),
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Exchange {
  answers: Answer[];
  /** Bytes after the last complete answer (a truncated or unparseable answer). */
  rest: string;
  closedByServer: boolean;
  /** Milliseconds from connect to close (or to our timeout). */
  elapsedMs: number;
  error?: string;
}

export interface ExchangeOptions {
  /** Written after the first bytes, `gapMs` apart. */
  then?: Array<Buffer | string>;
  gapMs?: number;
  /** Half-close our side after the last write. */
  end?: boolean;
  timeoutMs?: number;
  /** Stop (and destroy the socket) once this many final answers arrived. */
  answers?: number;
}

/** Splits what a server sent into answers by HTTP/1.1 framing (Content-Length; 1xx have no body). */
export function parseAnswers(bytes: Buffer): { answers: Answer[]; rest: string } {
  const text = bytes.toString('latin1');
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const lines = text.slice(at, end).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(match[1]);
    const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
    if (end + 4 + length > text.length) break;
    if (status >= 200) answers.push({ status, headers, body: bytes.subarray(end + 4, end + 4 + length).toString('utf8') });
    at = end + 4 + length;
  }
  return { answers, rest: text.slice(at) };
}

/** One connection: writes `first` (one write), then `then`, and collects until the server closes or the timeout. */
export async function exchange(port: number, first: Buffer | string, options: ExchangeOptions = {}): Promise<Exchange> {
  const { answers, ...rest } = options;
  const talked = await talk(port, first, {
    ...rest,
    timeoutMs: options.timeoutMs ?? 5000,
    ...(answers === undefined ? {} : { done: (received: Buffer) => parseAnswers(received).answers.length >= answers }),
  });
  return { ...parseAnswers(talked.received), closedByServer: talked.closedByServer, elapsedMs: talked.elapsedMs, error: talked.error };
}

/** A raw HTTP/1.1 request. */
export function request(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body !== '' && headers['Transfer-Encoding'] === undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

export interface SignedWebhook {
  eventId: string;
  bytes: string;
}

/** A correctly signed HMAC webhook for serve's `hmac` listener, timestamped by serve's clock. */
export async function signedWebhook(serve: Serve, body = JSON.stringify({ user: 'u-1', n: randomUUID() })): Promise<SignedWebhook> {
  const { listenerId, secret } = serve.profile.webhooks.hmac;
  const eventId = randomUUID();
  const timestamp = String(Math.floor(await serveClock(serve)));
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${eventId}.${body}`).digest('base64url');
  const headers = { 'Content-Type': 'application/json', 'Webhook-Timestamp': timestamp, 'Webhook-Event-Id': eventId, 'Webhook-Signature': signature };
  return { eventId, bytes: request('POST', `/api/v1/webhooks/incoming/${listenerId}`, headers, body) };
}

const hooksHeaders = (serve: Serve): Record<string, string> => ({ authorization: `Bearer ${serve.profile.hooks.token}` });

async function serveClock(serve: Serve): Promise<number> {
  const response = await fetch(`${serve.profile.hooks.baseUrl}/clock`, { headers: hooksHeaders(serve), signal: AbortSignal.timeout(5000) });
  return ((await response.json()) as { now: number }).now;
}

/** The event IDs the runs hook recorded for the hmac listener. */
export async function recordedRuns(serve: Serve): Promise<Set<string>> {
  const url = `${serve.profile.hooks.baseUrl}/runs?listenerId=${encodeURIComponent(serve.profile.webhooks.hmac.listenerId)}`;
  const response = await fetch(url, { headers: hooksHeaders(serve), signal: AbortSignal.timeout(5000) });
  const runs = ((await response.json()) as { runs: Array<{ eventId: string }> }).runs;
  return new Set(runs.map((run) => run.eventId));
}

/** A token request body for the primary credentials. */
export function tokenForm(serve: Serve): string {
  const { clientId, clientSecret } = serve.profile.credentials.primary;
  return new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
}

/** How long each call of the health check may take (a shared 2-core machine running other tests). */
const PROMPT_MS = 3000;

/**
 * serve is alive and does its job promptly: a token, the owner IDs with it, and a signed webhook that runs.
 * Returns the problems found (empty when healthy).
 */
export async function health(serve: Serve): Promise<string[]> {
  if (!serve.alive()) return [`serve exited:\n${serve.output().slice(-2000)}`];
  const problems: string[] = [];
  const timed = async (what: string, url: string, init: RequestInit): Promise<Response | undefined> => {
    const started = Date.now();
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(PROMPT_MS) });
      if (response.status !== 200) problems.push(`${what}: ${response.status} ${(await response.text()).slice(0, 200)}`);
      return response;
    } catch (error) {
      problems.push(`${what}: no answer within ${PROMPT_MS} ms (${Date.now() - started} ms: ${(error as Error).message})`);
      return undefined;
    }
  };
  const base = serve.profile.baseUrl;
  const token = await timed('token', `${base}/auth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(serve),
  });
  const accessToken = token?.status === 200 ? ((await token.json()) as { access_token: string }).access_token : 'none';
  const owners = await timed('owner IDs', `${base}/api/v1/apps/${serve.profile.apps.owners.appId}/ownerids`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  await owners?.arrayBuffer();
  const webhook = await signedWebhook(serve);
  const sent = await exchange(serve.port, webhook.bytes, { answers: 1, timeoutMs: PROMPT_MS });
  if (sent.answers[0]?.status !== 200) problems.push(`webhook: ${sent.answers[0]?.status ?? `no answer in ${sent.elapsedMs} ms`}`);
  return problems;
}
