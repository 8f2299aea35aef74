/**
 * What a webhook the client builds may change (service.md §4.3, §5.4): each option breaks or replaces one
 * part of an otherwise valid request. Part of the client's public types (re-exported by types.ts).
 */
import type { SignatureTamper } from '../crypto/jws-tamper.js';
import type { JwtAlg, SigningJwk } from '../profile/types.js';
import type { SignatureMangle } from './signature-mangle.js';

/** Each field breaks or replaces exactly one part of an otherwise valid request. */
export interface WebhookOptions {
  /** JSON value (serialised), raw string or bytes. Default: a small faker-shaped JSON object. */
  body?: unknown;
  /** Pad the default JSON body to exactly this many bytes. */
  bodyBytes?: number;
  /** Default: a fresh UUID v4. */
  eventId?: string;
  /** Header value sent; default: target clock (hook) or local time, Unix seconds as a string. */
  timestamp?: string | number;
  /** Seconds added to the current time for the default timestamp (e.g. -270). */
  timestampOffset?: number;
  /** Default `application/json`; `null` omits the header. */
  contentType?: string | null;
  /** Header names (any case) to leave out after building. */
  omitHeaders?: string[];
  /** Headers set after building (win over everything). */
  headers?: Record<string, string>;
  /** Further lines of these headers, sent after the built (or set) one: a repeated Webhook-* header. */
  repeatHeaders?: Record<string, string[]>;
  hmac?: HmacOptions;
  jwt?: WebhookJwtOptions;
  label?: string;
}

export interface HmacOptions {
  /** Sign with this secret instead of the listener's. */
  secret?: string;
  /** Use the base64url-decoded bytes of the secret as key (the classic client mistake). */
  decodedKey?: boolean;
  /** Order of the signature input parts; default ['timestamp', 'eventId', 'body']. */
  order?: Array<'timestamp' | 'eventId' | 'body'>;
  /** Sign this body instead of the one sent. */
  signedBody?: string | Buffer;
  /** Sign this timestamp instead of the one sent. */
  signedTimestamp?: string;
  /** Sign this event ID instead of the one sent ('' for a request without Webhook-Event-Id). */
  signedEventId?: string;
  /** Keep base64 padding / use standard base64 alphabet. */
  padded?: boolean;
  standardBase64?: boolean;
  /** The digest as lower-case hex instead of base64url. */
  hex?: boolean;
  /** What joins the signed parts instead of "." ('' for none). */
  separator?: string;
  /** Change the valid digest after signing (signature-mangle.ts). */
  mangle?: SignatureMangle;
  /** Send this value as Webhook-Signature verbatim. */
  signature?: string;
}

export interface WebhookJwtOptions {
  /** Which of the listener's signing keys: by alg, or by kid; default the first. */
  alg?: JwtAlg;
  kid?: string;
  /** Sign with this JWK instead (e.g. a key not in the JWKS). */
  key?: SigningJwk;
  /** Claims replaced (value) or removed (`null`) after the valid set is built. */
  claims?: Record<string, unknown | null>;
  /** Header parameters replaced or removed (`null`). */
  header?: Record<string, unknown | null>;
  /** `none`: unsigned; `HS256-public`: HS256 with the public key's JSON as the secret. */
  forge?: 'none' | 'HS256-public';
  /** HS256 keyed with these bytes (e.g. empty: what a `kid` naming /dev/null yields). */
  hs256Key?: Uint8Array;
  /** The exact JSON text signed instead of JSON.stringify(claims) (e.g. with a repeated member). */
  serialize?: (claims: Record<string, unknown>) => string;
  /** Breaks the signature after signing (see SignatureTamper). */
  tamper?: SignatureTamper;
  /** `exp` seconds from now; default +300. */
  expIn?: number;
  /** Sets the whole Authorization header value. */
  authorization?: string;
}
