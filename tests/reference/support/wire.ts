/**
 * What any client of the service could write with node:crypto and fetch alone: HMAC signatures, JWTs,
 * client assertions, a JWKS server over node:https. The reference tests use these instead of src/crypto
 * and src/client, so a mistake shared by the harness's signer and the reference's verifier cannot hide.
 */
import { createHash, createHmac, createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Jwk = Record<string, unknown> & { kty: string; kid?: string; alg?: string };

/** The part of a target profile these tests read (secrets inline, as `serve` writes them). */
export interface SandboxProfile {
  baseUrl: string;
  tenantDomain: string;
  credentials: Record<'primary' | 'ipRestricted' | 'expired', { clientId: string; clientSecret: string }>;
  apps: {
    owners: { appId: string; ownerIds: string[] | null };
    missingAppId: string;
    entitlements: Record<'large' | 'exact' | 'empty', { appId: string; count: number }>;
  };
  webhooks: {
    hmac: { listenerId: string; secret: string };
    hmacSecond: { listenerId: string; secret: string };
    ipRestricted: { listenerId: string; secret: string };
    inactive: { listenerId: string; secret: string };
    jwt: { listenerId: string; signingKeys: Jwk[]; serveJwks: { url: string; tlsCertFile: string; tlsKeyFile: string } };
    jwtUnreachableJwks: { listenerId: string; signingKeys: Jwk[] };
  };
  hooks?: { baseUrl: string; token: string };
  limits: { webhookBodyBytes: number };
}

export const b64u = (data: Buffer | string): string => Buffer.from(data).toString('base64url');
export const uuid = (): string => randomUUID();
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** base64url(HMAC-SHA256(utf8(secret), `${ts}.${id}.${body}`)) without padding. */
export function hmacSignature(secret: string, timestamp: string, eventId: string, body: Buffer | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${timestamp}.${eventId}.`), Buffer.from(body)]))
    .digest('base64url');
}

export function sha256Url(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('base64url');
}

function keyObject(jwk: Jwk): KeyObject {
  return createPrivateKey({ key: jwk as never, format: 'jwk' });
}

/** A compact JWS. alg none gives an empty signature; HS256 uses `hsKey`. */
export function signJwt(header: Record<string, unknown>, payload: Record<string, unknown>, key?: Jwk, hsKey?: Buffer): string {
  const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(payload))}`;
  const data = Buffer.from(input);
  switch (header.alg) {
    case 'none':
      return `${input}.`;
    case 'HS256':
      return `${input}.${createHmac('sha256', hsKey ?? Buffer.alloc(32)).update(data).digest('base64url')}`;
    case 'RS256':
      return `${input}.${b64u(sign('sha256', data, keyObject(key as Jwk)))}`;
    case 'ES256':
      return `${input}.${b64u(sign('sha256', data, { key: keyObject(key as Jwk), dsaEncoding: 'ieee-p1363' }))}`;
    case 'EdDSA':
      return `${input}.${b64u(sign(null, data, keyObject(key as Jwk)))}`;
    default:
      throw new Error(`test signer: unsupported alg ${String(header.alg)}`);
  }
}

/** The Ed25519 private JWK inside a Client Secret `secret-token:<domain>:v1:<b64url JWK>`. */
export function secretJwk(clientSecret: string): Jwk {
  const encoded = clientSecret.split(':')[3] as string;
  return JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Jwk;
}

export interface AssertionOverrides {
  header?: Record<string, unknown>;
  /** Replaces or adds claims; `undefined` values remove the claim. */
  claims?: Record<string, unknown>;
  key?: Jwk;
}

export function clientAssertion(clientId: string, clientSecret: string, aud: unknown, now: number, overrides: AssertionOverrides = {}): string {
  const claims: Record<string, unknown> = { iss: clientId, sub: clientId, aud, iat: now, nbf: now - 120, exp: now + 120, ...overrides.claims };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return signJwt({ alg: 'EdDSA', ...overrides.header }, claims, overrides.key ?? secretJwk(clientSecret));
}

export function publicJwk(jwk: Jwk): Jwk {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest as Jwk;
}

export interface JwksServer {
  url: string;
  /** Requests served so far. */
  hits(): number;
  close(): Promise<void>;
}

/** Serves `{"keys": [...]}` over HTTPS on host:port with the given PEM certificate and key. */
export async function serveJwks(certPem: string, keyPem: string, host: string, port: number, keys: Jwk[]): Promise<JwksServer> {
  let hits = 0;
  const server: Server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    hits += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: keys.map(publicJwk) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `https://${host}:${address.port}/jwks.json`,
    hits: () => hits,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface WireResponse {
  status: number;
  headers: Headers;
  text: string;
  // Bodies are checked field by field against the spec; their shape is what is under test, not a type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function call(url: string, init: RequestInit = {}): Promise<WireResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
