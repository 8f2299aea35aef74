/**
 * Generated malformed requests for the fuzz test, all from one seeded faker so a failure can be replayed.
 * Three kinds: well-formed HTTP with nonsense in it (sent with fetch), broken HTTP (sent on a raw socket),
 * and correctly signed webhooks with hostile bodies and headers (to get past authentication).
 */
import type { Faker } from '../../../src/data/fake.js';
import { hmacSignature, uuid, type SandboxProfile } from './wire.js';

export interface FetchCase {
  kind: 'fetch';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawCase {
  kind: 'raw';
  bytes: Buffer;
  /** Expect no answer (the request is incomplete on purpose). */
  incomplete: boolean;
}

// fetch refuses TRACE and CONNECT; the raw cases send anything.
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'FOO', 'post', 'Get'];

function junk(faker: Faker): string {
  return faker.helpers.arrayElement([
    () => '',
    () => faker.string.alphanumeric({ length: { min: 1, max: 40 } }),
    () => faker.string.sample({ min: 1, max: 60 }),
    () => faker.string.numeric({ length: { min: 1, max: 25 } }),
    () => `-${faker.string.numeric(5)}`,
    () => faker.string.uuid(),
    () => faker.string.uuid().toUpperCase(),
    () => '%'.repeat(faker.number.int({ min: 1, max: 5 })) + faker.string.hexadecimal({ length: 1 }),
    () => faker.internet.url(),
    () => faker.lorem.words(3),
    () => 'x'.repeat(faker.number.int({ min: 100, max: 4000 })),
    () => faker.helpers.arrayElement(['null', 'true', '[]', '{}', '0', '-0', '1e999', 'NaN', '0x10', '  10  ', '10.0']),
  ])();
}

/** A header value fetch will send: visible latin1, no CR/LF. */
function headerValue(faker: Faker): string {
  return junk(faker).replace(/[^\x20-\x7e]/g, '?').trim() || 'x';
}

function path(faker: Faker, p: SandboxProfile): string {
  const listener = faker.helpers.arrayElement([
    p.webhooks.hmac.listenerId,
    p.webhooks.jwt.listenerId,
    p.webhooks.inactive.listenerId,
    p.webhooks.jwtUnreachableJwks.listenerId,
    encodeURIComponent(junk(faker)),
  ]);
  const app = faker.helpers.arrayElement([p.apps.entitlements.large.appId, p.apps.owners.appId, p.apps.missingAppId, encodeURIComponent(junk(faker))]);
  const query = (): string => {
    const params = Array.from({ length: faker.number.int({ min: 0, max: 4 }) }, () =>
      `${faker.helpers.arrayElement(['page_size', 'page_token', 'listenerId', junk(faker)])}=${encodeURIComponent(junk(faker))}`,
    );
    return params.length > 0 ? `?${params.join('&')}` : '';
  };
  return faker.helpers.arrayElement([
    () => '/auth/v1/token',
    () => `/auth/v1/token${query()}`,
    () => `/api/v1/apps/${app}/ownerids${query()}`,
    () => `/api/v1/apps/${app}/entitlements${query()}`,
    () => `/api/v1/apps/${app}/${encodeURIComponent(junk(faker))}`,
    () => `/api/v1/webhooks/incoming/${listener}`,
    () => `/api/v1/webhooks/incoming/${listener}/${encodeURIComponent(junk(faker))}`,
    () => `/api/v1/webhooks/incoming/%E0%A4%A`,
    () => `/__hooks/v1/${faker.helpers.arrayElement(['clock', 'runs', 'x'])}${query()}`,
    () => `/${encodeURIComponent(junk(faker))}/../${encodeURIComponent(junk(faker))}`,
    () => `/api/v1/${'a/'.repeat(faker.number.int({ min: 1, max: 300 }))}`,
    () => '/',
  ])();
}

function body(faker: Faker): Buffer {
  return faker.helpers.arrayElement([
    () => Buffer.alloc(0),
    () => Buffer.from(JSON.stringify({ [faker.word.noun()]: junk(faker), n: faker.number.float() })),
    () => Buffer.from(JSON.stringify({ a: 1 }).slice(0, faker.number.int({ min: 1, max: 6 }))),
    () => Buffer.from(faker.string.sample({ min: 1, max: 500 })),
    () => Buffer.from(Array.from({ length: faker.number.int({ min: 1, max: 300 }) }, () => faker.number.int(255))),
    () => Buffer.from(`grant_type=${encodeURIComponent(junk(faker))}&client_id=${encodeURIComponent(junk(faker))}&client_assertion=${junk(faker)}`),
    () => Buffer.from('%zz=%%&&==&a=\u0000'),
    () => Buffer.alloc(faker.number.int({ min: 60_000, max: 140_000 }), faker.helpers.arrayElement([0x20, 0x7b, 0xff])),
    () => Buffer.from('{"a":'.repeat(faker.number.int({ min: 100, max: 5000 }))),
  ])();
}

export function fetchCase(faker: Faker, p: SandboxProfile): FetchCase {
  const method = faker.helpers.arrayElement(METHODS).toUpperCase();
  const headers: Record<string, string> = {};
  const names = ['content-type', 'authorization', 'webhook-timestamp', 'webhook-event-id', 'webhook-signature', 'expect', 'accept', 'x-forwarded-for'];
  for (const name of faker.helpers.arrayElements(names)) {
    headers[name] = faker.helpers.arrayElement([
      () => headerValue(faker),
      () => (name === 'content-type' ? faker.helpers.arrayElement(['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x']) : headerValue(faker)),
      () => (name === 'authorization' ? `${faker.helpers.arrayElement(['Bearer', 'Basic', 'bearer', 'Token', ''])} ${headerValue(faker)}` : headerValue(faker)),
      () => (name === 'webhook-timestamp' ? String(Math.floor(Date.now() / 1000) + faker.number.int({ min: -400, max: 400 })) : headerValue(faker)),
    ])();
  }
  delete headers.expect; // fetch refuses to send Expect
  const withBody = method !== 'GET' && method !== 'HEAD' && faker.datatype.boolean(0.8);
  return { kind: 'fetch', method, path: path(faker, p), headers, body: withBody ? body(faker) : undefined };
}

/** A correctly signed webhook whose body or other headers are hostile. */
export function signedCase(faker: Faker, p: SandboxProfile, now: number): FetchCase {
  const listener = faker.helpers.arrayElement([p.webhooks.hmac, p.webhooks.hmacSecond, p.webhooks.inactive]);
  const payload = faker.helpers.arrayElement([
    () => body(faker).subarray(0, 70_000),
    () => Buffer.from(JSON.stringify(faker.helpers.arrayElement([null, 0, 'text', [], {}, { deep: { deeper: [1, { x: junk(faker) }] } }]))),
    () => Buffer.from(`\uFEFF{"bom":true}`),
    () => Buffer.from(`{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}`),
  ])();
  const timestamp = String(Math.floor(now) + faker.number.int({ min: -299, max: 299 }));
  const eventId = faker.datatype.boolean(0.9) ? uuid() : junk(faker).replace(/[^\x20-\x7e]/g, '') || 'e';
  const contentType = faker.helpers.arrayElement(['application/json', 'APPLICATION/JSON', 'application/json;charset=utf-8', 'application/jsonx', ' application/json ']);
  return {
    kind: 'fetch',
    method: 'POST',
    path: `/api/v1/webhooks/incoming/${listener.listenerId}`,
    headers: {
      'content-type': contentType,
      'webhook-timestamp': timestamp,
      'webhook-event-id': eventId,
      'webhook-signature': hmacSignature(listener.secret, timestamp, eventId, payload),
    },
    body: payload,
  };
}

export function rawCase(faker: Faker, p: SandboxProfile): RawCase {
  const target = path(faker, p);
  const make = faker.helpers.arrayElement<() => [string | Buffer, boolean]>([
    () => [`${junk(faker)} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, false],
    () => [`GET ${target} HTTP/${faker.helpers.arrayElement(['0.9', '2.0', '1.7', 'x'])}\r\nHost: x\r\n\r\n`, false],
    () => [`GET ${faker.string.sample(30)} HTTP/1.1\r\n\r\n`, false],
    () => [`POST ${target} HTTP/1.1\r\nHost: x\r\n${junk(faker)}\r\n\r\n`, false],
    () => [`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: ${faker.helpers.arrayElement(['-1', 'abc', '1, 2', '99999999999999999999'])}\r\n\r\n{}`, false],
    () => [`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, false],
    () => [`POST ${target} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${faker.helpers.arrayElement(['zz', '-1', 'ffffffffffffffffff'])}\r\nab\r\n0\r\n\r\n`, false],
    () => [`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${faker.number.int({ min: 10, max: 90_000 })}\r\n\r\n{"trunc`, true],
    () => [`GET ${target} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(faker.number.int({ min: 17_000, max: 90_000 }))}\r\n\r\n`, false],
    () => [`GET ${target} HTTP/1.1\r\n${Array.from({ length: faker.number.int({ min: 100, max: 3000 }) }, (_, i) => `X-${i}: v`).join('\r\n')}\r\n\r\n`, false],
    () => [Buffer.concat([Buffer.from(`GET /${'\u0000'}`), Buffer.from(Array.from({ length: 40 }, () => faker.number.int(255))), Buffer.from('\r\n\r\n')]), false],
    () => [`GET ${target} HTTP/1.1\r\nHost: x\r\nHost: y\r\nAuthorization: Bearer \u00ff\u00fe\r\n\r\n`, false],
    () => [`POST ${target} HTTP/1.1\r\nHost: x\r\nExpect: ${faker.helpers.arrayElement(['100-continue', 'weird'])}\r\nContent-Length: 5\r\n\r\n`, true],
  ]);
  const [text, incomplete] = make();
  return { kind: 'raw', bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1'), incomplete };
}
