/**
 * The sixteen client mistakes of issue 45, each built with the project's own crypto helpers as a client
 * developer would get it wrong, with what the sandbox answered before diagnoses (status and `error`) and
 * what the sentence must now say. Shared by the diagnosis tests and the oracle test.
 */
import { createHash } from 'node:crypto';
import { buildClientAssertion, buildWebhookClaims, hmacSign, signWebhookJwt, type HmacSignInput } from '../../../src/crypto/index.js';
import type { Tenant } from '../../../src/tenant/types.js';

export interface SentRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** Every correct digest this request's signature could be compared with (the oracle test greps for them). */
  correct: string[];
}

export interface MistakeCase {
  n: number;
  what: string;
  status: number;
  error: string;
  mistake: string | readonly string[];
  says: readonly RegExp[];
  build(context: BuildContext): Promise<SentRequest>;
}

export interface BuildContext {
  tenant: Tenant;
  /** The reference's clock, Unix seconds. */
  now: number;
  uuid(): string;
}

export const BODY = { user: 'u-1', action: 'offboard', detail: { reason: 'left', at: 1 } };
export const COMPACT = JSON.stringify(BODY);
const PRETTY = JSON.stringify(BODY, null, 2);
const hmacPath = (t: Tenant): string => `/api/v1/webhooks/incoming/${t.listeners.hmac.listenerId}`;
const jwtPath = (t: Tenant): string => `/api/v1/webhooks/incoming/${t.listeners.jwt.listenerId}`;

/** The right signature of a webhook in every encoding a leak could take. */
export function correctSignatures(secret: string, timestamp: string, eventId: string, body: string): string[] {
  const base = { secret, timestamp, eventId, body };
  return [hmacSign(base), hmacSign({ ...base, hex: true }), hmacSign({ ...base, hex: true }).toUpperCase(), hmacSign({ ...base, standardBase64: true }), hmacSign({ ...base, standardBase64: true, padded: true }), hmacSign({ ...base, padded: true })];
}

/** An HMAC webhook whose signature is made with `change`, sent with `send` overriding what is sent. */
export async function hmacWebhook(c: BuildContext, change: Partial<HmacSignInput>, send: { timestamp?: string; eventId?: string; body?: string } = {}): Promise<SentRequest> {
  const secret = c.tenant.listeners.hmac.secret;
  const timestamp = send.timestamp ?? String(Math.floor(c.now));
  const eventId = send.eventId ?? c.uuid();
  const body = send.body ?? COMPACT;
  const signature = hmacSign({ secret, timestamp, eventId, body, ...change });
  return {
    path: hmacPath(c.tenant),
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': eventId, 'webhook-signature': signature },
    body,
    correct: correctSignatures(secret, timestamp, eventId, body),
  };
}

/** A JWT webhook with the claims `change` makes (and the header `header` changes). */
export async function jwtWebhook(c: BuildContext, change: (claims: Record<string, unknown>, eventId: string) => void, header: Record<string, unknown> = {}): Promise<SentRequest> {
  const eventId = c.uuid();
  const key = c.tenant.listeners.jwt.signingKeys[0]!;
  const claims = buildWebhookClaims({ baseUrl: c.tenant.baseUrl, webhookUrl: `${c.tenant.baseUrl}${jwtPath(c.tenant)}`, eventId, body: Buffer.from(COMPACT), now: Math.floor(c.now) });
  change(claims, eventId);
  const jwt = await signWebhookJwt({ key, claims, header });
  return {
    path: jwtPath(c.tenant),
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-timestamp': String(Math.floor(c.now)), 'webhook-event-id': eventId, authorization: `Bearer ${jwt}` },
    body: COMPACT,
    correct: [],
  };
}

export async function assertionRequest(c: BuildContext, options: Partial<Parameters<typeof buildClientAssertion>[0]> = {}): Promise<SentRequest> {
  const { clientId, clientSecret } = c.tenant.credentials.primary;
  const assertion = await buildClientAssertion({ clientId, clientSecret, audience: c.tenant.tenantDomain, now: Math.floor(c.now), ...options });
  return tokenForm({ grant_type: 'client_credentials', client_id: clientId, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
}

export function tokenForm(form: Record<string, string>, headers: Record<string, string> = {}): SentRequest {
  return { path: '/auth/v1/token', method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString(), correct: [] };
}

export const SIXTEEN: readonly MistakeCase[] = [
  { n: 1, what: 'HMAC keyed with the decoded secret', status: 401, error: 'unauthorized', mistake: 'hmac-key-decoded-secret', says: [/decoded secret/, /UTF-8 bytes/], build: (c) => hmacWebhook(c, { decodedKey: true }) },
  { n: 2, what: 'HMAC digest sent as hex', status: 401, error: 'unauthorized', mistake: 'hmac-digest-hex', says: [/\bhex\b/, /base64url/], build: (c) => hmacWebhook(c, { hex: true }) },
  {
    n: 3,
    what: 'HMAC digest in standard base64 with padding',
    status: 401,
    error: 'unauthorized',
    mistake: 'hmac-digest-standard-base64',
    says: [/padding/, /standard/, /base64url/],
    build: async (c) => {
      // A digest written with "+" or "/": without them standard base64 and base64url are the same text.
      for (;;) {
        const sent = await hmacWebhook(c, { standardBase64: true, padded: true });
        if (/[+/]/.test(sent.headers['webhook-signature']!)) return sent;
      }
    },
  },
  { n: 4, what: 'signing input with the parts swapped', status: 401, error: 'unauthorized', mistake: 'hmac-parts-order', says: [/order/, /<Webhook-Event-Id>\.<Webhook-Timestamp>\.<body>/] , build: (c) => hmacWebhook(c, { order: ['eventId', 'timestamp', 'body'] }) },
  { n: 5, what: 'signing input without the periods', status: 401, error: 'unauthorized', mistake: 'hmac-parts-no-separator', says: [/periods/, /"\."/], build: (c) => hmacWebhook(c, { separator: '' }) },
  {
    n: 6,
    what: 'signed the pretty-printed JSON, sent the compact bytes',
    status: 401,
    error: 'unauthorized',
    mistake: 'hmac-body-reserialized',
    says: [/pretty-printed with 2 spaces/, /raw bytes/],
    build: (c) => hmacWebhook(c, { body: PRETTY }),
  },
  {
    n: 7,
    what: 'Webhook-Timestamp in milliseconds',
    status: 400,
    error: 'invalid_timestamp',
    mistake: 'timestamp-milliseconds',
    says: [/milliseconds/, /seconds/],
    build: (c) => {
      const ms = String(Math.floor(c.now * 1000));
      return hmacWebhook(c, { timestamp: ms }, { timestamp: ms });
    },
  },
  {
    n: 8,
    what: 'a version-1 UUID as event ID',
    status: 400,
    error: 'invalid_event_id',
    mistake: 'event-id-uuid-version',
    says: [/version-1/, /version 4/],
    build: (c) => hmacWebhook(c, { eventId: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' }, { eventId: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' }),
  },
  {
    n: 9,
    what: "JWT aud = the tenant's base URL",
    status: 401,
    error: 'unauthorized',
    mistake: 'jwt-aud-not-listener-url',
    says: [/\baud\b/, /listener's full URL http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks\/incoming\/\S+/, /base URL/],
    build: (c) => jwtWebhook(c, (claims) => void (claims.aud = c.tenant.baseUrl)),
  },
  { n: 10, what: 'JWT jti different from the event ID', status: 401, error: 'unauthorized', mistake: 'jwt-jti-not-event-id', says: [/\bjti\b/, /Webhook-Event-Id/], build: (c) => jwtWebhook(c, (claims) => void (claims.jti = c.uuid())) },
  {
    n: 11,
    what: 'JWT htb_s256 over the pretty-printed body',
    status: 401,
    error: 'unauthorized',
    mistake: 'jwt-htb-reserialized-body',
    says: [/htb_s256/, /raw bytes/, /pretty-printed/],
    build: (c) => jwtWebhook(c, (claims) => void (claims.htb_s256 = createHash('sha256').update(PRETTY).digest('base64url'))),
  },
  { n: 12, what: 'JWT exp 30 minutes ahead', status: 401, error: 'unauthorized', mistake: 'jwt-exp-too-far', says: [/\bexp\b/, /600 s \(10 min\)/, /1[78]\d\d s \(30 min\) ahead/], build: (c) => jwtWebhook(c, (claims) => void (claims.exp = Math.floor(c.now) + 1800)) },
  { n: 13, what: 'JWT kid not in the JWKS', status: 401, error: 'unauthorized', mistake: 'jwt-kid-unknown', says: [/\bkid\b "not-a-kid"/, /JWKS/, /holds "/], build: (c) => jwtWebhook(c, () => {}, { kid: 'not-a-kid' }) },
  {
    n: 14,
    what: 'client credentials in a Basic Authorization header',
    status: 400,
    error: 'invalid_request',
    mistake: 'token-basic-auth',
    says: [/form body/, /Basic/],
    build: async (c) => {
      const { clientId, clientSecret } = c.tenant.credentials.primary;
      return tokenForm({ grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}` });
    },
  },
  {
    n: 15,
    what: "client assertion aud = the token URL",
    status: 401,
    error: 'invalid_client',
    mistake: 'assertion-aud-not-tenant-domain',
    says: [/\baud\b/, /tenant's domain "127\.0\.0\.1"|tenant's domain "[^"]+"/, /token endpoint's URL/],
    build: (c) => assertionRequest(c, { aud: `${c.tenant.baseUrl}/auth/v1/token` }),
  },
  { n: 16, what: 'client assertion exp an hour ahead', status: 401, error: 'invalid_client', mistake: 'assertion-exp-too-far', says: [/\bexp\b/, /300 s \(5 min\)/, /3[56]\d\d s \(60 min\) ahead/], build: (c) => assertionRequest(c, { expIn: 3600 }) },
];
