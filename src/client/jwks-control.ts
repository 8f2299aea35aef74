/**
 * Changing the served JWKS from a suite worker. The JWKS server lives in the process that runs the suites
 * (the engine or the fault runner), the checks in vitest workers; a check that rotates a key in asks
 * through this plain-HTTP endpoint on 127.0.0.1, guarded by a random token handed to the workers in the
 * run context. It only ever sets public keys (private members are dropped by the JWKS server).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { toPublicJwk, type JWK } from '../crypto/index.js';
import { HarnessError } from '../errors.js';
import { listenOnLoopback } from './bait-server.js';

/** Where a worker reaches the control endpoint: serialisable (vitest provide/inject). */
export interface JwksControl {
  url: string;
  token: string;
}

/**
 * What the control changes: a served JWKS's extra keys. jwks-server.ts's JwksServer is one; declared here
 * because the server starts the control, so the control cannot take the server's type back from it.
 */
export interface ExtraKeysTarget {
  setExtraKeys(keys: ReadonlyArray<Record<string, unknown>>): void;
}

export interface JwksControlServer {
  control: JwksControl;
  close(): Promise<void>;
}

/** Largest control request read: a handful of public keys. */
const MAX_BODY_BYTES = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error('too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function tokenMatches(given: string | undefined, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `PUT /extra-keys` with `Authorization: Bearer <token>` and `{"keys":[…]}` sets the server's extra keys. */
export async function startJwksControl(server: ExtraKeysTarget): Promise<JwksControlServer> {
  const token = randomBytes(32).toString('base64url');
  const http = createServer((req, res) => {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (req.method !== 'PUT' || req.url !== '/extra-keys' || !tokenMatches(bearer, token)) {
      res.writeHead(404).end();
      return;
    }
    readBody(req).then(
      (text) => {
        let keys: unknown;
        try {
          keys = (JSON.parse(text) as { keys?: unknown }).keys;
        } catch {
          keys = undefined;
        }
        if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
          res.writeHead(400).end();
          return;
        }
        server.setExtraKeys(keys as Array<Record<string, unknown>>);
        res.writeHead(204).end();
      },
      () => res.writeHead(400).end(),
    );
  });
  const port = await listenOnLoopback(http);
  return {
    control: { url: `http://127.0.0.1:${port}`, token },
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

/** From a worker: the JWKS server now serves these (public halves of) keys besides the listener's. */
export async function setServedExtraKeys(control: JwksControl, keys: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  let status: number;
  try {
    const res = await fetch(`${control.url}/extra-keys`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json' },
      // Public halves only leave this process: the JWKS server would drop private members anyway.
      body: JSON.stringify({ keys: keys.map((key) => toPublicJwk(key as JWK)) }),
      signal: AbortSignal.timeout(5_000),
    });
    status = res.status;
  } catch (error) {
    throw new HarnessError('JWKS_SERVER', 'cannot reach the harness\'s JWKS control endpoint', { cause: error });
  }
  if (status !== 204) throw new HarnessError('JWKS_SERVER', `the harness's JWKS control endpoint answered ${status}`);
}
