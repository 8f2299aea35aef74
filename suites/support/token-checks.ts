/**
 * Token-endpoint helpers for the tokens and api-auth suites: what an issued token looks like (ruling 4),
 * what an RFC 6749 §5.2 error looks like (ruling 5), and the well-formed-but-wrong inputs that break exactly
 * one rule (another client's ID, another key's secret). Values built here that look like secrets are
 * registered with the recorder so that reports never show them either.
 */
import { createHash } from 'node:crypto';
import type { ExchangeRecorder, HttpResponse } from '../../src/client/types.js';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';
import { HarnessError } from '../../src/errors.js';
import type { Faker } from '../../src/data/fake.js';
import { parseClientId, splitSecret, decodeJwk } from './credential-format.js';
import { ControlNotAccepted, describeResponse, expectField, expectJsonObject, expectStatus, fail, jsonType } from './expect.js';
import { isConformanceFailure } from '../../src/errors.js';

/** Status 200, a JSON object and a non-empty string `access_token`; returns the token (registered for redaction). */
export function expectTokenIssued(res: HttpResponse, recorder: ExchangeRecorder, what: string): string {
  expectStatus(res, 200, what);
  const body = expectJsonObject(res, what);
  const token = expectField(body, 'access_token', what);
  if (typeof token !== 'string' || token === '') {
    fail(`${what}: access_token is not a non-empty string`, 'a non-empty string', typeof token === 'string' ? 'empty string' : jsonType(token));
  }
  recorder.addSecret(token);
  return token;
}

/**
 * A refusal check's own control request (the valid assertion it builds on) got a token; when it did not,
 * the check cannot conclude and is blocked (ControlNotAccepted), not failed.
 */
export function expectControlTokenIssued(res: HttpResponse, recorder: ExchangeRecorder, what: string): string {
  try {
    return expectTokenIssued(res, recorder, what);
  } catch (error) {
    if (!isConformanceFailure(error)) throw error;
    throw new ControlNotAccepted(`${what}: ${error.message}, so this check cannot conclude`, error.expected, error.actual);
  }
}

/** Like {@link expectTokenIssued}, but a refusal is a harness problem: the check needs a token to go on. */
export function tokenForPrecondition(res: HttpResponse, recorder: ExchangeRecorder, what: string): string {
  const body = res.json();
  const token = res.status === 200 && typeof body === 'object' && body !== null ? (body as Record<string, unknown>).access_token : undefined;
  if (typeof token !== 'string' || token === '') {
    throw new HarnessError('TOKEN_UNAVAILABLE', `${what}: the target issued no token (${describeResponse(res)}), so this check cannot run`, {
      hint: 'the primary credential must obtain a token (see TOK-01 / TOK-02)',
    });
  }
  recorder.addSecret(token);
  return token;
}

/** One acceptable RFC 6749 §5.2 answer: a status and an `error` code. */
export interface OAuthErrorShape {
  status: number;
  error: string;
}

/** Status and `error` member match one of the accepted pairs (ruling 5's SHOULD). */
export function expectOAuthError(res: HttpResponse, accepted: readonly OAuthErrorShape[], what: string): void {
  const expected = accepted.map((shape) => `${shape.status} {"error":"${shape.error}"}`).join(' or ');
  const body = res.json();
  const error = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).error : undefined;
  const ok = accepted.some((shape) => shape.status === res.status && shape.error === error);
  if (!ok) fail(`${what}: not the RFC 6749 §5.2 error`, expected, describeResponse(res));
}

/** A well-formed Client ID that names no credential: same hostname and use-case, another random id. */
export function unknownClientId(clientId: string, faker: Faker): string {
  const parts = parseClientId(clientId);
  const random = `${faker.word.adjective()}-${faker.animal.type().replace(/\W/g, '')}-${faker.string.numeric(6)}`.toLowerCase();
  if ('error' in parts) return `${random}@unknown.invalid/conformance`;
  return `${random}@${parts.hostname}/${parts.useCase}`;
}

/**
 * A Client Secret in the right format, with the same service domain, holding a fresh Ed25519 key that the
 * target has never seen: a "wrong secret" that breaks nothing but the key.
 */
export function foreignSecret(secret: string, recorder: ExchangeRecorder): string {
  const parts = splitSecret(secret);
  const domain = 'error' in parts ? 'service.invalid' : parts.serviceDomain;
  const jwk = newEd25519Jwk();
  const text = Buffer.from(JSON.stringify({ kty: jwk.kty, crv: jwk.crv, d: jwk.d, x: jwk.x })).toString('base64url');
  const value = `secret-token:${domain}:v1:${text}`;
  recorder.addSecret(value);
  return value;
}

/** RFC 7638 thumbprint of the secret's public key: the natural `kid` a client would send (ruling 3). */
export function secretKeyThumbprint(secret: string): string {
  const parts = splitSecret(secret);
  const decoded = 'error' in parts ? undefined : decodeJwk(parts.jwkText);
  if (!decoded?.ok || typeof decoded.jwk.x !== 'string') {
    throw new HarnessError('CLIENT_SECRET_INVALID', 'the primary Client Secret holds no readable Ed25519 JWK (see CRED-09)', {
      field: 'credentials.primary.clientSecret',
    });
  }
  const canonical = JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: decoded.jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}
