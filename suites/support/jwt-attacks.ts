/**
 * Shared by the webhook-jwt-attacks and token-attacks suites: the attacker's keys (a fresh key pair, a
 * self-signed certificate for one), the bait URLs a token points at (`jku`, `x5u`, a URL `kid`), and
 * "every variant refused", which sends the variants of one attack concurrently and fails naming each one
 * the target accepted.
 */
import { startBaitServer, type BaitServer } from '../../src/client/index.js';
import type { HttpResponse } from '../../src/client/types.js';
import { buildJwks, createSelfSignedSigningKey, generateSigningKey, toPublicJwk, type SelfSignedSigningKey } from '../../src/crypto/index.js';
import type { JwtAlg, SigningJwk } from '../../src/profile/types.js';
import { isHarnessError } from '../../src/errors.js';
import { describeResponse, fail } from './expect.js';

/** The empty key: what reading /dev/null (the classic path-traversal `kid`) gives an HMAC verifier. */
export const EMPTY_KEY = new Uint8Array(0);

/** `kid` values that are file paths: traversal to /dev/null and the absolute path. */
export const PATH_KIDS = ['../../../../../../../../dev/null', '/dev/null'] as const;

export interface AttackerKeys {
  /** A fresh key of the attacker's, named by its own thumbprint (not in any JWKS of the target). */
  own: SigningJwk;
  /** A self-signed certificate's key: what `x5c` / `x5u` carry. */
  certified: SelfSignedSigningKey;
}

export async function attackerKeys(alg: JwtAlg = 'EdDSA'): Promise<AttackerKeys> {
  const [own, certified] = await Promise.all([generateSigningKey(alg), createSelfSignedSigningKey('attacker.example')]);
  return { own, certified };
}

/** The certified key in the form the signing options take. */
export function certifiedSigningKey(certified: SelfSignedSigningKey, kid = certified.privateJwk.kid): SigningJwk {
  return { ...certified.privateJwk, kid, alg: 'ES256', use: 'sig' } as SigningJwk;
}

export interface Bait {
  server: BaitServer;
  jwksUrl(scheme?: 'http' | 'https'): string;
  certUrl(scheme?: 'http' | 'https'): string;
}

/** A bait server holding the attacker's keys as a JWKS and the attacker's certificate as PEM. */
export async function startBait(keys: AttackerKeys): Promise<Bait> {
  const jwks = buildJwks([keys.own, toPublicJwk(certifiedSigningKey(keys.certified))]);
  const server = await startBaitServer({
    '/jwks.json': { contentType: 'application/json', body: JSON.stringify(jwks) },
    '/cert.pem': { contentType: 'application/pem-certificate-chain', body: keys.certified.certPem },
  });
  return { server, jwksUrl: (scheme) => server.url('/jwks.json', scheme), certUrl: (scheme) => server.url('/cert.pem', scheme) };
}

/**
 * One bait token, as both attack suites build it: the signing key (absent: the listed key or the secret's,
 * as the suite signs by default), header fields, and an HS256 key when the attack is a forged HMAC.
 */
export interface BaitToken {
  what: string;
  key?: SigningJwk;
  header: Record<string, unknown>;
  hs256Key?: Uint8Array;
}

/**
 * The one `jku` / `x5u` bait set of both JWT attack suites (client assertions, webhook JWTs): the attacker's
 * JWKS and certificate named by URL, over http and https. The header names `kid` and `alg` outright so that
 * each signer sends the same header whatever its own defaults.
 */
export function keyUrlBaits(keys: AttackerKeys, bait: Bait): BaitToken[] {
  const certified = certifiedSigningKey(keys.certified);
  const kid = keys.own.kid;
  return (['http', 'https'] as const).flatMap((scheme) => [
    { what: `jku (${scheme}) naming the attacker's JWKS`, key: keys.own, header: { kid, jku: bait.jwksUrl(scheme) } },
    { what: `x5u (${scheme}) naming the attacker's certificate`, key: certified, header: { alg: 'ES256', x5u: bait.certUrl(scheme) } },
  ]);
}

/** The one `kid` bait set of both suites: file paths (HS256 over what /dev/null reads as) and a URL. */
export function kidBaits(keys: AttackerKeys, bait: Bait): BaitToken[] {
  return [
    ...PATH_KIDS.map((kid) => ({ what: `kid "${kid}", HS256 over the empty key`, header: { kid }, hs256Key: EMPTY_KEY })),
    { what: 'kid naming a URL that serves the attacker\'s JWKS', key: keys.own, header: { kid: bait.jwksUrl() } },
  ];
}

/**
 * Starts a bait server for the attacker's keys, runs the attack against it, and fails when the target
 * connected to it (`what` names the tokens sent); the server is closed on every path.
 */
export async function withBait(keys: AttackerKeys, what: string, attack: (bait: Bait) => Promise<void>): Promise<void> {
  const bait = await startBait(keys);
  try {
    await attack(bait);
    expectBaitUntouched(bait, what);
  } finally {
    await bait.server.close();
  }
}

/** Fails when the target connected to the bait server (it followed a URL from the token). */
export function expectBaitUntouched(bait: Bait, what: string): void {
  const count = bait.server.connections;
  if (count > 0) {
    fail(`${what}: the target connected to the harness URL named in the token ${count} time(s): it follows key URLs from the token (SSRF)`,
      'no connection to a URL taken from the token', `${count} connection(s) to ${bait.server.url('/')}`);
  }
}

export interface Variant {
  what: string;
  send(): Promise<HttpResponse>;
}

/**
 * Sends once more when the connection was reset before any answer. Sending variants at once leaves several
 * pooled keep-alive connections, and on a loaded machine one may be reused just as the server times it out.
 * Safe for what the attack checks send: every `send()` builds a new request (a fresh event ID), and a
 * refused request consumes nothing.
 */
export async function sendRetryingReset(send: () => Promise<HttpResponse>): Promise<HttpResponse> {
  try {
    return await send();
  } catch (error) {
    if (isHarnessError(error) && error.code === 'CONNECTION_RESET') return send();
    throw error;
  }
}

/**
 * Sends every variant at once; each must satisfy `refused`. The failure lists each variant that was not
 * refused with its response, so one report shows every hole of the class.
 */
export async function expectEveryVariantRefused(variants: readonly Variant[], refused: (res: HttpResponse) => boolean, expected: string): Promise<void> {
  const responses = await Promise.all(variants.map((variant) => sendRetryingReset(variant.send)));
  const accepted = variants.map((variant, i) => ({ variant, res: responses[i]! })).filter(({ res }) => !refused(res));
  if (accepted.length === 0) return;
  const lines = accepted.map(({ variant, res }) => `${variant.what}: ${describeResponse(res)}`);
  fail(`${accepted.length} of ${variants.length} variant(s) not refused: ${accepted.map(({ variant }) => variant.what).join('; ')}`, expected, lines.join(' | '));
}
