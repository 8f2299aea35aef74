/**
 * The client's public contract. Suites, the load driver and users' own tests program against these types;
 * `src/client/` implements them with undici. Everything a suite needs to break one rule at a time is an
 * option here, so suites never build HTTP requests by hand except through {@link TargetClient.request}.
 */
import type { HarnessErrorCode } from '../errors.js';
import type { CredentialKey, ResolvedProfile, SigningJwk } from '../profile/types.js';
import type { ClientSettings } from './settings.js';
import type { WebhookOptions } from './webhook-types.js';
import type { ReplayNote } from './replay-note.js';

export type { ClientSettings };
export type { ReplayNote, ReplayRecipe } from './replay-note.js';
export type * from './webhook-types.js';

/** One request and its answer (or transport error), secrets already redacted. */
export interface RecordedExchange {
  /** Increasing within one recorder. */
  seq: number;
  /** What the caller said this request was for, e.g. `token: assertion with exp in the past`. */
  label?: string;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    /** UTF-8 text of the body up to the recorder's bound (default 4096 bytes), redacted. */
    body?: string;
    bodyBytes: number;
    bodyTruncated: boolean;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body?: string;
    bodyBytes: number;
    bodyTruncated: boolean;
  };
  error?: { code: HarnessErrorCode; message: string };
  /**
   * How to send this request again later (a failure's reproduction, issue 23): its recipe in portable
   * JSON, or why it has none. The reporters write it to <out>/reproductions/; report.json leaves it out.
   */
  replay?: ReplayNote;
  /** Epoch milliseconds when the request started, and its duration. */
  startedAt: number;
  durationMs: number;
}

/** Keeps exchanges in order, redacted (each when it is first read: nothing of it reads unredacted). */
export interface ExchangeRecorder {
  /** Adds a value to redact from everything stored after this call (tokens obtained, assertions built). */
  addSecret(value: string): void;
  /** Applies the redaction rules to any text (reporters use it as a last line of defence). */
  redact(text: string): string;
  /** Every exchange recorded so far. */
  all(): readonly RecordedExchange[];
  /** A position to pass to {@link since}. */
  mark(): number;
  /** Exchanges recorded after a mark. */
  since(mark: number): RecordedExchange[];
  clear(): void;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  /** Parsed JSON, or `undefined` when the body is not JSON (never throws). */
  json(): unknown;
  exchange: RecordedExchange;
}

/** A request exactly as given: nothing added but `content-length`. */
export interface RawRequest {
  method: string;
  /** A path (joined to the profile's baseUrl) or an absolute URL. */
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  label?: string;
  /** Overrides the client's per-request timeout. */
  timeoutMs?: number;
  /** Default true: on 429 wait for Retry-After (bounded) and send again, a bounded number of times. */
  retryOn429?: boolean;
  /** Overrides the client's bound on the response body (a hook's answer may be large). */
  maxResponseBytes?: number;
}

/** What createTargetClient takes: the run's settings, and what only code can give (recorder, callbacks). */
export interface ClientOptions extends ClientSettings {
  /** Must come from `createRecorder()` (it redacts before storing); default a fresh one. */
  recorder?: ExchangeRecorder;
  /** Seed of the default webhook bodies (seededFaker); default random. */
  seed?: string;
  /**
   * The scope of the values generated for the request being built, read when it is built (the suites give
   * the running check's ID): default bodies are numbered within their scope, so a check sends the same
   * bodies for one seed however many other checks run beside it. Default: one scope for the client.
   */
  scope?: () => string;
  /** Told after every attempt: `ok` for any HTTP answer but 429, else the failure's code (the run's give-up counter). */
  onRequestOutcome?: (outcome: RequestOutcome) => void;
  /**
   * The operations the planner classified as reads (the run's plan, `planOperations().called`): the only
   * ones the firewall lets a POST go to (ruling 35). Without it, an API call may only be a GET.
   */
  readOperations?: readonly import('./firewall.js').ReadOperation[];
}

/**
 * One attempt's fate, as the run's give-up counter sees it; `status` (the answer's) lets the engine tell a
 * target that answers everything alike (src/engine/uniform-answer.ts).
 */
export type RequestOutcome = { ok: true; status?: number } | { ok: false; code: string; message: string };

// ---------------------------------------------------------------------------------------------------------
// Token endpoint

// AssertionOptions belongs to crypto, which builds the assertion; the client passes it through.
import type { AssertionOptions } from '../crypto/client-assertion.js';
export type { AssertionOptions };

export interface TokenRequestOptions {
  /** `secret` (client_secret in the form) or `assertion` (signed EdDSA client assertion). */
  method: 'secret' | 'assertion';
  /** Which profile credential; default `primary`. */
  credential?: CredentialKey;
  /** Overrides the Client ID sent in the form. */
  clientId?: string;
  /** Overrides the Client Secret sent (secret method). */
  clientSecret?: string;
  assertion?: AssertionOptions;
  /** Replaces or removes (`null`) form fields after they are built. */
  form?: Record<string, string | null>;
  /** Send the fields as a JSON body instead of a form. */
  asJson?: boolean;
  /** Further request headers (e.g. forwarding headers), set after the defaults. */
  headers?: Record<string, string>;
  /**
   * Where the client credentials go instead of the form body (§4.1: "in the request body, never in
   * headers"): `basic` sends client_id and client_secret as `Authorization: Basic` (RFC 6749 §2.3.1
   * encoding); `query` sends the credential fields (client_id and client_secret or the assertion pair) in
   * the URL's query string. grant_type stays in the body.
   */
  credentialsIn?: 'body' | 'basic' | 'query';
  label?: string;
}

export interface AccessToken {
  accessToken: string;
  tokenType: string;
  expiresIn: number;
  /** Epoch ms when it was obtained (local clock). */
  obtainedAt: number;
}

// ---------------------------------------------------------------------------------------------------------
// API calls and pagination

/** `token`: a specific bearer value, `null` for no Authorization header; default: a cached primary token. */
export interface ApiCallOptions {
  token?: string | null;
  /** Raw Authorization header value, wins over `token`. */
  authorization?: string;
  label?: string;
}

/** One API call, for any operation: the path with its parameters filled and its query; a JSON body or its text. */
export interface ApiRequest {
  method: string;
  /** Joined to the profile's baseUrl, e.g. `/api/v1/apps?page_size=10`. */
  path: string;
  /** Sent as JSON (`content-type: application/json`); a string is sent as it is. */
  body?: unknown;
}

/**
 * One request of an operation: its template and parameters (the client fills them, each percent-encoded
 * as one segment), the query's pairs and the JSON body. It passes the request firewall (firewall.ts).
 */
export interface OperationRequest {
  operation: import('./firewall.js').OperationTarget;
  /** Query pairs, encoded by the client; empty values are sent (`page_token=`). */
  query?: ReadonlyArray<readonly [string, string]>;
  /** Sent as JSON (`content-type: application/json`); a string is sent as it is. */
  body?: unknown;
}

export interface PageOptions extends ApiCallOptions {
  /** Left out when undefined; sent verbatim when a string (e.g. `'abc'`, `'-5'`). */
  pageSize?: number | string;
  /** Left out when undefined; `''` sends `page_token=`. */
  pageToken?: string;
}

export interface WalkOptions extends ApiCallOptions {
  pageSize?: number;
  /** Send `page_token=` on the first request instead of leaving it out. */
  emptyFirstToken?: boolean;
  /** Stop with PAGE_LIMIT after this many pages; default 1000. */
  maxPages?: number;
}

export interface PageItem {
  item: unknown;
  /** 1-based page number. */
  page: number;
}

export interface PageRecord {
  page: number;
  status: number;
  itemCount: number;
  /** As received; may be non-string on a faulty target. */
  nextPageToken: unknown;
  response: HttpResponse;
}

export interface WalkResult {
  items: PageItem[];
  pages: PageRecord[];
}

export interface HookRun {
  eventId: string;
  context: unknown;
  at: number;
}

/** The test hooks of test-hooks.md, when the profile has `hooks`. */
export interface TestHooks {
  now(): Promise<number>;
  advance(seconds: number): Promise<number>;
  runs(listenerId: string): Promise<HookRun[]>;
  /** Which hooks answer (probed once: GET /clock, GET /runs). */
  probe(): Promise<{ clock: boolean; runs: boolean }>;
}

export interface TargetClient {
  readonly profile: ResolvedProfile;
  readonly recorder: ExchangeRecorder;
  /** Present when the profile has `hooks`. */
  readonly hooks?: TestHooks;

  /**
   * A raw request, through the client's one way out (outbound.ts): a GET on the profile's origins, a POST
   * to the token endpoint, a webhook listener or a read of the run's plan, the test hooks' own calls.
   * Anything else (another method, another origin) is `REQUEST_REFUSED` and never sent.
   */
  request(req: RawRequest): Promise<HttpResponse>;

  /** The raw token exchange. */
  requestToken(options: TokenRequestOptions): Promise<HttpResponse>;
  /** A cached token for a credential, refreshed before `expires_in` runs out; TOKEN_UNAVAILABLE on refusal. */
  token(credential?: CredentialKey, method?: 'secret' | 'assertion'): Promise<AccessToken>;
  /** Forgets cached tokens. */
  resetTokens(): void;

  /** GET /api/v1/apps/{appId}/ownerids; with the default token it retries once on 401 with a fresh token. */
  ownerIds(appId: string, options?: ApiCallOptions): Promise<HttpResponse>;
  /** One GET /api/v1/apps/{appId}/entitlements. */
  entitlementsPage(appId: string, options?: PageOptions): Promise<HttpResponse>;
  /**
   * Any API call (a list or search operation), authenticated like the others unless options say otherwise.
   * It passes the request firewall (ruling 35): GET, or POST to a read of `ClientOptions.readOperations`;
   * anything else is refused (`REQUEST_REFUSED`) and never sent.
   */
  apiCall(request: ApiRequest, options?: ApiCallOptions): Promise<HttpResponse>;
  /** One request of an operation of the run's plan, its path built from the template (firewall.ts). */
  operationCall(request: OperationRequest, options?: ApiCallOptions): Promise<HttpResponse>;
  /** Walks every page; PAGE_LOOP when a token repeats, PAGE_LIMIT past maxPages. */
  walkEntitlements(appId: string, options?: WalkOptions): Promise<WalkResult>;
  /** The same walk as an async iterator of items with their page numbers. */
  entitlements(appId: string, options?: WalkOptions): AsyncIterable<PageItem>;

  /** Sends a webhook to a profile listener, authenticated by its method unless options break it. */
  sendWebhook(listener: import('../profile/types.js').ListenerKey, options?: WebhookOptions): Promise<HttpResponse>;
  /** The same, to any listener ID with explicit auth (for unknown listeners). */
  sendWebhookTo(
    listenerId: string,
    auth: { hmacSecret: string } | { jwtKeys: SigningJwk[] } | { none: true },
    options?: WebhookOptions,
  ): Promise<HttpResponse>;

  /** The target's clock (hook) when offered, else local time; Unix seconds. */
  now(): Promise<number>;
  close(): Promise<void>;
}
