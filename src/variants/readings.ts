/**
 * The legitimate variants, each declared once as an entry of this table (the form of the fault tables,
 * src/faults/types.ts `FaultEntry`, with `warns` for `breaks` and the `area` and `stacks` said in the entry,
 * since one table holds every area): a reading the spec leaves open that a named mainstream stack takes by
 * default. stacks.ts groups them by stack; `npm run fault -- <name>` verifies one.
 */
import { isUtf8 } from 'node:buffer';
import { decodeJwtParts } from '../crypto/decode.js';
import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../faults/support/assertion-faults.js';
import { contextRunner, contextTextRunner } from '../faults/support/context.js';
import { composed } from '../faults/support/define.js';
import { DAY, RETENTION } from '../faults/support/events.js';
import { bearerToken, errorResponse, json, listenerOf, listenerUrl, onRoute, routeOf } from '../faults/support/http.js';
import { acceptIfSignedAndClaimsPass, jwtRule } from '../faults/support/jwt-faults.js';
import { nullDatesAbsent } from '../faults/support/numeric-dates.js';
import { isSearch, withSearchBody } from '../faults/support/operations.js';
import { renderingListPages } from '../faults/support/paging.js';
import { firstLine, oneHeaderLine } from '../faults/support/repeated-headers.js';
import { refusal, tokenForm } from '../faults/support/token-endpoint.js';
import { readUuidForms } from '../faults/support/uuid-forms.js';
import { acceptAs, webhookFault } from '../faults/support/webhook-faults.js';
import { createMemoryEventStore } from '../reference/event-store.js';
import type { Jwks, JwksFetcher } from '../reference/types.js';
import type { Tenant } from '../tenant/types.js';
import { readingTable } from './define.js';
import { pageSizeReading } from './support/page-size.js';

/** Strings (skipped, escapes included) or numbers of a JSON text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Python's `json` reading of a number: an integer token stays exact (Python ints are unbounded, and `-0` is
 * the int 0); a token with a fraction or an exponent becomes a float, written back at its shortest, and a
 * float beyond a double's range (inf) has no JSON form, so it arrives as null.
 */
function pythonNumber(token: string): string {
  if (token.startsWith('"')) return token;
  if (/^-?\d+$/.test(token)) return token === '-0' ? '0' : token;
  const value = Number(token);
  return Number.isFinite(value) ? JSON.stringify(value) : 'null';
}

/** DynamoDB deletes expired items "typically within a few days"; until then a conditional put still sees them. */
const DELETION_LAG = 2 * DAY;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A surrogate code point (U+D800–U+DFFF) written as UTF-8 bytes: 0xED, then 0xA0–0xBF, then a continuation byte. */
const ENCODED_SURROGATE = Buffer.from([0xed]);

/**
 * The body with each UTF-8-encoded surrogate written as the JSON escape of that code point: the same JSON value
 * a decoder with `surrogatepass` reads (a string holding a lone surrogate), in bytes the reference parses.
 * Outside a string the escape is as invalid as the bytes were, so the reference still refuses that body.
 */
function escapeSurrogates(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(ENCODED_SURROGATE); at !== -1 && at + 2 < body.length; at = body.indexOf(ENCODED_SURROGATE, at + 1)) {
    const second = body[at + 1]!;
    const third = body[at + 2]!;
    if (second < 0xa0 || second > 0xbf || (third & 0xc0) !== 0x80) continue;
    const codePoint = 0xd000 | ((second & 0x3f) << 6) | (third & 0x3f);
    parts.push(body.subarray(from, at), Buffer.from(`\\u${codePoint.toString(16)}`));
    from = at + 3;
  }
  return parts.length === 0 ? undefined : Buffer.concat([...parts, body.subarray(from)]);
}

interface KeptDocuments {
  documents: Map<string, Jwks>;
  /** JWKS URLs a token with a kid the kept document lacks has asked to refetch. */
  wanted: Set<string>;
}

const keptByTenant = new WeakMap<Tenant, KeptDocuments>();

function keptOf(tenant: Tenant): KeptDocuments {
  let kept = keptByTenant.get(tenant);
  if (kept === undefined) keptByTenant.set(tenant, (kept = { documents: new Map(), wanted: new Set() }));
  return kept;
}

const NUMERIC_DATES = ['exp', 'nbf', 'iat'] as const;

/** Go's `int` on 64-bit platforms: `strconv.Atoi` refuses a value beyond it with ErrRange. */
const INT64_MIN = -(2n ** 63n);

const INT64_MAX = 2n ** 63n - 1n;

export const READINGS = readingTable([
  {
    name: 'body-limit-400',
    description: 'Refuses a body over the limit with 400 (the failed read taken for an invalid body) instead of 413; ruling 13 allows either.',
    area: 'webhook-common',
    stacks: 'Go net/http `http.MaxBytesReader` (the read error lands in the handler\'s invalid-body 400); the reference\'s 413 is Express body-parser\'s',
    touches: ['WH-03', 'WH-X01'],
    warns: [],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 413 ? errorResponse(400, 'invalid_body', 'the body could not be read', { connection: 'close' }) : response;
      },
    }),
  },
  {
    name: 'context-decimals-as-floats',
    description: 'Reads the context\'s integers exactly and its decimals as doubles (RFC 8259 §6 allows it): a decimal beyond a double\'s precision loses digits, `-0` becomes 0, `1e400` arrives as null.',
    area: 'automations',
    stacks: 'Python `json.loads` (FastAPI `await request.json()`): unbounded ints, floats for every number with a fraction or an exponent',
    touches: ['RUN-X03', 'RUN-X04', 'RUN-X07'],
    warns: ['RUN-X02'],
    ports: contextTextRunner((contextJson) => contextJson.replace(TOKENS, pythonNumber)),
  },
  {
    name: 'context-numbers-as-doubles',
    description: 'Holds the context\'s numbers as doubles (RFC 8259 §6 allows it): beyond 2^53 or a double\'s precision digits are lost, -0 becomes 0, 1e400 becomes null.',
    area: 'automations',
    stacks: 'protobuf `Struct` (CEL-based automation engines), JavaScript `JSON.parse`, Go `json.Unmarshal` into `interface{}` (float64)',
    touches: ['RUN-X03', 'RUN-X04', 'RUN-X07'],
    warns: ['RUN-X01', 'RUN-X02'],
    // The parsed value without the body's text: the runs hook writes it with JSON.stringify.
    ports: contextRunner((context) => context),
  },
  {
    name: 'event-id-uuid-forms',
    description: 'Parses Webhook-Event-Id as a UUID in any text form its library reads (32 hex digits, braces, `urn:uuid:`, any case) and keeps one idempotency record per UUID.',
    area: 'webhook-common',
    stacks: 'Python `uuid.UUID()` (FastAPI/pydantic `UUID4`), Go github.com/google/uuid `Parse`',
    touches: ['IDEM-11', 'IDEM-13'],
    warns: ['WH-17', 'WH-30'],
    ...webhookFault({ handle: (call) => readUuidForms(call, (canonical) => canonical) }),
  },
  {
    name: 'headers-first-line',
    description: 'Reads the first line of a repeated Webhook-* header, the signed one, and verifies and acts on it alone.',
    area: 'webhook-common',
    stacks: 'Go net/http (`Header.Get`), Starlette/FastAPI (`request.headers[…]`)',
    warns: ['WH-X18', 'WH-X19', 'WH-X20'],
    ...oneHeaderLine(firstLine),
  },
  {
    name: 'idempotency-lazy-ttl',
    description: 'Keeps event records 7 days but deletes them lazily, up to two days later: an event ID sent again just after its 7 days may still get 409.',
    area: 'idempotency',
    stacks: 'DynamoDB TTL (expired items are deleted lazily, within days) behind a conditional put',
    touches: ['IDEM-07'],
    warns: ['IDEM-08', 'IDEM-X02'],
    ports: () => ({ eventStore: createMemoryEventStore({ retentionSeconds: RETENTION + DELETION_LAG }) }),
  },
  {
    name: 'json-bom-accepted',
    description: 'Parses a JSON body that starts with a UTF-8 byte order mark, skipping the mark (RFC 8259 §8.1 allows ignoring it); the signature still covers the raw bytes.',
    area: 'webhook-common',
    stacks: 'Python `json.loads(bytes)` (FastAPI/Starlette `await request.json()` detects and skips a UTF-8 BOM)',
    touches: ['WH-X08'],
    warns: [],
    ...webhookFault({
      handle: async (call) =>
        call.request.body.subarray(0, BOM.length).equals(BOM) ? acceptAs(call, { body: call.request.body.subarray(BOM.length) }) : call.next(call.request),
    }),
  },
  {
    name: 'json-invalid-utf8-replaced',
    description: 'Accepts a JSON body whose strings hold invalid UTF-8 (a stray byte, an overlong form, an encoded surrogate), reading each invalid sequence as U+FFFD; the signature still covers the raw bytes.',
    area: 'webhook-common',
    stacks: 'Go encoding/json (`json.Valid` and `json.Unmarshal` do not validate UTF-8 inside strings; an invalid byte decodes to U+FFFD)',
    warns: ['WH-X03', 'WH-X04', 'WH-X05'],
    ...webhookFault({
      // Buffer#toString replaces every invalid sequence with U+FFFD, as Go's decoder does for each bad byte. A
      // body over the limit is left to the reference: its cut may fall inside a character. (This reading was
      // the fault json-lenient-utf8 until WH-X03..X05 became SHOULD: RFC 8259 §8.1 binds the sender.)
      handle: async (call) =>
        call.request.bodyExceeded || isUtf8(call.request.body)
          ? call.next(call.request)
          : acceptAs(call, { body: Buffer.from(call.request.body.toString('utf8')) }),
    }),
  },
  {
    name: 'json-utf8-surrogates-accepted',
    description: 'Reads a UTF-8-encoded surrogate (0xED 0xA0 0x80) inside a JSON string as a lone surrogate instead of refusing the body as invalid UTF-8; other invalid bytes are still refused.',
    area: 'webhook-common',
    stacks: 'Python `json.loads(bytes)` (FastAPI/Starlette `await request.json()`: it decodes UTF-8 with `surrogatepass`)',
    warns: ['WH-X05'],
    ...webhookFault({
      handle: async (call) => {
        const escaped = escapeSurrogates(call.request.body);
        return escaped === undefined ? call.next(call.request) : acceptAs(call, { body: escaped });
      },
    }),
  },
  {
    name: 'jwks-refresh-on-unknown-kid',
    description: 'Keeps each JWKS document until a token names a `kid` it lacks, and only then fetches it again (no time-based refresh).',
    area: 'webhook-jwt',
    stacks: 'golang-jwt with MicahParks/keyfunc (`RefreshUnknownKID`, no refresh interval)',
    touches: ['WH-JWT-X19'],
    warns: [],
    ports: (deps, env) => {
      const inner = deps.jwksFetcher;
      const kept = keptOf(env.tenant);
      const jwksFetcher: JwksFetcher = async (url) => {
        const document = kept.documents.get(url);
        if (document !== undefined && !kept.wanted.has(url)) return document;
        kept.wanted.delete(url);
        const fresh = await inner(url);
        kept.documents.set(url, fresh);
        return fresh;
      };
      return { jwksFetcher };
    },
    wrap: (handler, env) => async (request) => {
      const route = routeOf(request);
      const known = route.kind === 'webhook' ? listenerOf(env.tenant, route.listenerId) : undefined;
      const jwt = known?.method === 'JWT' ? bearerToken(request) : undefined;
      if (known?.method === 'JWT' && jwt !== undefined) {
        const { documents, wanted } = keptOf(env.tenant);
        const url = known.listener.config.jwksUrl;
        const kid = decodeJwtParts(jwt).header?.kid;
        if (documents.get(url)?.keys.some((key) => key.kid === kid) === false) wanted.add(url);
      }
      return handler(request);
    },
  },
  {
    name: 'jwt-aud-array',
    description: 'Accepts an `aud` array that holds the listener URL, alone or among other audiences, as RFC 7519 §4.1.3 and the JWT libraries read it.',
    area: 'webhook-jwt',
    stacks: 'RFC 7519 §4.1.3; golang-jwt `WithAudience`, jose `jwtVerify({ audience })`, PyJWT `audience=`',
    touches: ['WH-JWT-28'],
    warns: ['WH-JWT-X16'],
    ...jwtRule({
      decide: (check) => {
        const { verdict, decoded, env, listener } = check;
        const aud = decoded?.payload?.aud;
        if (verdict?.ok !== false || verdict.reason !== 'aud-mismatch' || !Array.isArray(aud)) return 'reference';
        return aud.includes(listenerUrl(env.tenant, listener.listenerId)) ? 'accept' : 'reference';
      },
    }),
  },
  {
    name: 'jwt-duplicate-claims-last-wins',
    description: 'Reads a JWT payload with a repeated claim as its JSON parser does, the last occurrence winning, instead of refusing it (RFC 7519 §4 allows either).',
    area: 'webhook-jwt',
    stacks: 'Go encoding/json (golang-jwt), Python `json` (PyJWT), JavaScript `JSON.parse` (jose)',
    touches: ['WH-JWT-X17'],
    warns: ['WH-JWT-X18'],
    ...jwtRule({
      decide: async (check) => {
        const { verdict } = check;
        if (verdict?.ok !== false || verdict.reason !== 'duplicate-member') return 'reference';
        // decoded.payload came from JSON.parse: the last occurrence of each member.
        return acceptIfSignedAndClaimsPass(check);
      },
    }),
  },
  {
    name: 'jwt-iat-unread',
    description: 'Never reads `iat` (§5.4 does not require it), so an `iat` of any JSON type, null included, is ignored; `exp` and `nbf` are still read as JSON numbers only.',
    area: 'webhook-jwt',
    stacks: 'Go encoding/json into a claims struct without `iat` (unknown members are skipped); golang-jwt v5 reads `iat` only with `WithIssuedAt()`',
    warns: ['WH-JWT-X11', 'WH-JWT-X22'],
    ...jwtRule({
      decide: async (check) => {
        const payload = check.decoded?.payload;
        if (check.verdict?.ok !== false || payload === undefined || !('iat' in payload) || typeof payload.iat === 'number') return 'reference';
        const { iat: _unread, ...rest } = payload;
        return acceptIfSignedAndClaimsPass(check, rest);
      },
    }),
  },
  {
    name: 'jwt-null-claims-absent',
    description: 'Reads a JSON null in the optional NumericDate claims `nbf` and `iat` as an absent claim, in the webhook JWT and the client assertion alike; `exp: null` is still refused (`exp` is required).',
    area: 'webhook-jwt',
    stacks: 'go-jose v2, golang-jwt v5 (`RegisteredClaims`: `NotBefore`, `IssuedAt` are `*NumericDate`, nil for null)',
    warns: ['WH-JWT-X22', 'TOK-X12'],
    // One reading, two verifiers: the token endpoint's (innermost) and the webhook listener's.
    ...composed(
      acceptAssertion({
        accepts: async (check) => {
          const seen = check.decoded.payload === undefined ? undefined : nullDatesAbsent(check.decoded.payload);
          return seen !== undefined && assertionSignedBy(check.assertion, check.credential.config.publicJwk) && assertionClaimsPass(check, seen);
        },
      }),
      jwtRule({
        decide: async (check) => {
          const payload = check.decoded?.payload;
          const seen = check.verdict?.ok === false && payload !== undefined ? nullDatesAbsent(payload) : undefined;
          return seen === undefined ? 'reference' : acceptIfSignedAndClaimsPass(check, seen);
        },
      }),
    ),
  },
  {
    name: 'jwt-numeric-date-strings',
    description: 'Reads `exp`, `nbf` and `iat` sent as a string of digits as the time they denote, and enforces that time.',
    area: 'webhook-jwt',
    stacks: 'PyJWT 2.x (`int(payload["exp"])`)',
    warns: ['WH-JWT-X11'],
    ...jwtRule({
      decide: async (check) => {
        const payload = check.decoded?.payload;
        if (check.verdict?.ok !== false || payload === undefined) return 'reference';
        const strings = NUMERIC_DATES.filter((claim) => typeof payload[claim] === 'string' && /^\d+$/.test(payload[claim] as string));
        if (strings.length === 0) return 'reference';
        const coerced = { ...payload, ...Object.fromEntries(strings.map((claim) => [claim, Number(payload[claim])])) };
        return acceptIfSignedAndClaimsPass(check, coerced);
      },
    }),
  },
  {
    name: 'page-empty-list-null',
    description: 'Answers `"list": null` on an empty page, where service.md shows an empty array (ruling 34 allows null or absent; `[]` SHOULD be sent).',
    area: 'pagination',
    stacks: 'protobuf JSON (grpc-gateway\'s marshaller with EmitUnpopulated: an empty repeated field as null); the real service\'s own description marks `list` nullable',
    touches: ['PAGE-25'],
    warns: ['PAGE-24'],
    wrap: (handler) => renderingListPages(handler, (page) => (Array.isArray(page.list) && page.list.length === 0 ? { ...page, list: null } : page)),
  },
  {
    name: 'page-size-go-atoi',
    description: 'Reads page_size with a signed 64-bit decimal parser: `+50` is 50; a value beyond the int64 range (ErrRange) or anything that is not an optionally signed integer gets 400.',
    area: 'pagination',
    stacks: 'Go `strconv.Atoi`/`ParseInt`, grpc-gateway query parameters',
    touches: ['PAGE-X05', 'PAGE-X06', 'PAGE-33', 'PAGE-34', 'PAGE-35'],
    warns: [],
    ...pageSizeReading({
      parse: (text) => {
        if (!/^[+-]?\d+$/.test(text)) return undefined;
        const value = BigInt(text);
        return value < INT64_MIN || value > INT64_MAX ? undefined : String(value);
      },
      refusal: 400,
    }),
  },
  {
    name: 'page-size-pydantic-int',
    description: 'Reads page_size as pydantic reads an int: surrounding whitespace stripped and a sign allowed (` 50`, `+50` are 50), any number of digits (Python\'s int is unbounded); a text that is not an integer gets FastAPI\'s 422.',
    area: 'pagination',
    stacks: 'FastAPI `page_size: int = Query(25)` with pydantic 2',
    touches: ['PAGE-X04', 'PAGE-X05', 'PAGE-X06', 'PAGE-35'],
    warns: ['PAGE-11', 'PAGE-12', 'PAGE-X01', 'PAGE-X02', 'PAGE-X03'],
    ...pageSizeReading({
      parse: (text) => {
        const match = /^\s*([+-]?)(\d+)\s*$/.exec(text);
        return match ? `${match[1] === '-' ? '-' : ''}${match[2]}` : undefined;
      },
      refusal: 422,
    }),
  },
  {
    name: 'page-size-zero-default',
    description: 'Reads page_size 0 as no page size (protobuf\'s unset int32), so 0 gives the default page of 25 (ruling 33); negatives and 1–9 still act as 10.',
    area: 'pagination',
    stacks: 'protobuf-based services (grpc-gateway: an int32 field cannot tell 0 from unset); the real service\'s own description ("A value of 0 returns the default page size (currently 25)")',
    touches: ['PAGE-02', 'OPS-08'],
    warns: ['PAGE-30', 'OPS-09'],
    ...pageSizeReading({
      parse: (text) => (/^[+-]?0+$/.test(text) ? 'unset' : text),
      refusal: 400,
    }),
  },
  {
    name: 'search-body-camel-case-only',
    description: 'Reads a search\'s page size and token only under the description\'s camelCase names (pageSize, pageToken): page_size and page_token in the body are ignored; ruling 34 makes service.md\'s spelling a SHOULD.',
    area: 'operations',
    stacks: 'a handler that reads the JSON body by the property names its OpenAPI description declares (Express `req.body.pageSize`, generated server stubs); protobuf\'s JSON mapping takes both spellings',
    touches: ['OPS-15'],
    warns: ['OPS-15'],
    wrap: (handler) => async (request) => {
      if (!isSearch(request)) return handler(request);
      return handler(withSearchBody(request, (body) => {
        delete body.page_size;
        delete body.page_token;
      }));
    },
  },
  {
    name: 'token-client-auth-first',
    description: 'Authenticates the client before reading the request: a malformed token request it cannot read a client from (a JSON body, no client_id) gets 401 `invalid_client` instead of 400.',
    area: 'tokens',
    stacks: 'Spring Authorization Server (`OAuth2ClientAuthenticationFilter` runs before the grant is read), passport `oauth2-client-password`',
    touches: ['TOK-33', 'TOK-35', 'TOK-36'],
    warns: ['TOK-34'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        const clientId = tokenForm(request)?.get('client_id');
        return response.status === 400 && !clientId ? refusal(401, 'invalid_client', 'client authentication failed') : response;
      }),
  },
  {
    name: 'token-errors-fastapi-detail',
    description: 'Refuses token requests with the same statuses but FastAPI\'s error body `{"detail": "…"}` instead of RFC 6749 §5.2\'s `{"error": …}`.',
    area: 'tokens',
    stacks: 'FastAPI `HTTPException` (its default error body `{"detail": …}`)',
    touches: ['TOK-25', 'TOK-27', 'TOK-29', 'TOK-31', 'TOK-33', 'TOK-35'],
    warns: ['TOK-26', 'TOK-28', 'TOK-30', 'TOK-32', 'TOK-34', 'TOK-36'],
    wrap: (handler) =>
      onRoute('token', handler, async (request, _route, next) => {
        const response = await next(request);
        if (response.status < 400 || response.status > 499) return response;
        return json(response.status, { detail: 'token request refused' }, { 'cache-control': 'no-store' });
      }),
  },
  {
    name: 'unknown-listener-401',
    description: 'Answers 401 for a listener ID it never generated (authentication runs first and has no secret to check against) instead of 404.',
    area: 'webhook-common',
    stacks: 'Express `app.use(verifyWebhook)` or a FastAPI router dependency that authenticates before the route looks the listener up',
    warns: ['WH-27'],
    ...webhookFault({
      handle: async ({ request, known, next }) =>
        known === undefined ? errorResponse(401, 'unauthorized', 'the request could not be authenticated') : next(request),
    }),
  },
]);

/** A variant's name, as stacks.ts lists them. */
export type VariantName = (typeof READINGS)[number]['name'];
