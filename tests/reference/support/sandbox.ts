/**
 * An in-process sandbox for the reference tests: startSandbox (the same code `serve` runs) plus small
 * wire-level helpers. Everything goes over real HTTP on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/tenant/index.js';
import { call, hmacSignature, nowSeconds, serveJwks, uuid, type JwksServer, type SandboxProfile, type WireResponse } from './wire.js';

export interface TestSandbox {
  sandbox: Sandbox;
  profile: SandboxProfile;
  baseUrl: string;
  jwks?: JwksServer;
  token(): Promise<string>;
  hmac(listener: { listenerId: string; secret: string }, options?: HmacOptions): Promise<WireResponse>;
  clock(): Promise<number>;
  advance(seconds: number): Promise<number>;
  runs(listenerId: string): Promise<Array<{ eventId: string; context: unknown; at: number }>>;
  close(): Promise<void>;
}

export interface HmacOptions {
  body?: Buffer | string;
  timestamp?: string;
  eventId?: string;
  /** Replaces (string) or removes (null) request headers after signing. */
  headers?: Record<string, string | null>;
  /** Sign these instead of what is sent. */
  sign?: { body?: Buffer | string; timestamp?: string; eventId?: string; secret?: string };
}

export async function startTestSandbox(options: SandboxOptions & { serveJwks?: boolean } = {}): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-reference-test-'));
  const sandbox = await startSandbox({ hooks: true, seed: 'reference-tests', profileDir: dir, logger: () => {}, ...options });
  const profile = JSON.parse(readFileSync(sandbox.profilePath, 'utf8')) as SandboxProfile;
  let jwks: JwksServer | undefined;
  if (options.serveJwks) {
    const serve = profile.webhooks.jwt.serveJwks;
    const base = dirname(sandbox.profilePath);
    const url = new URL(serve.url);
    jwks = await serveJwks(
      readFileSync(join(base, serve.tlsCertFile), 'utf8'),
      readFileSync(join(base, serve.tlsKeyFile), 'utf8'),
      url.hostname,
      Number(url.port),
      profile.webhooks.jwt.signingKeys,
    );
  }
  const hooksAuth = { authorization: `Bearer ${profile.hooks?.token ?? ''}` };
  const hookUrl = (path: string): string => `${profile.hooks?.baseUrl ?? `${sandbox.baseUrl}/__hooks/v1`}${path}`;

  const clock = async (): Promise<number> => (await call(hookUrl('/clock'), { headers: hooksAuth })).json.now as number;

  return {
    sandbox,
    profile,
    baseUrl: sandbox.baseUrl,
    jwks,
    async token() {
      const { clientId, clientSecret } = profile.credentials.primary;
      const response = await call(`${sandbox.baseUrl}/auth/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString(),
      });
      if (response.status !== 200) throw new Error(`token: ${response.status} ${response.text}`);
      return response.json.access_token as string;
    },
    async hmac(listener, o = {}) {
      const body = o.body ?? JSON.stringify({ hello: 'world', n: 1 });
      const timestamp = o.timestamp ?? String(Math.floor(await clock()));
      const eventId = o.eventId ?? uuid();
      const signature = hmacSignature(
        o.sign?.secret ?? listener.secret,
        o.sign?.timestamp ?? timestamp,
        o.sign?.eventId ?? eventId,
        o.sign?.body ?? body,
      );
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'webhook-timestamp': timestamp,
        'webhook-event-id': eventId,
        'webhook-signature': signature,
      };
      for (const [name, value] of Object.entries(o.headers ?? {})) {
        if (value === null) delete headers[name];
        else headers[name] = value;
      }
      return call(`${sandbox.baseUrl}/api/v1/webhooks/incoming/${listener.listenerId}`, { method: 'POST', headers, body });
    },
    clock,
    async advance(seconds) {
      const response = await call(hookUrl('/clock'), {
        method: 'POST',
        headers: { ...hooksAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: seconds }),
      });
      if (response.status !== 200) throw new Error(`advance: ${response.status}`);
      return response.json.now as number;
    },
    async runs(listenerId) {
      const response = await call(hookUrl(`/runs?listenerId=${encodeURIComponent(listenerId)}`), { headers: hooksAuth });
      return response.json.runs;
    },
    async close() {
      await jwks?.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { nowSeconds };
