/**
 * Everything a mistake's detection may read about one refused request: the request as received, the
 * reference's answer, the tenant (its secrets stay in here: a detection compares with them, a sentence
 * never carries them), the reference's clock, and what is costly to work out, each made once, on demand.
 */
import { decodeJwtParts, type DecodedJwt } from '../crypto/decode.js';
import type { ReferenceRequest } from '../reference/types.js';
import { WEBHOOK_PATH_PREFIX } from '../reference/webhooks.js';
import type { Tenant, TenantHmacListener, TenantJwtListener } from '../tenant/types.js';
import { HmacProbe } from './hmac-probe.js';
import type { IssuedTokens } from './issued-tokens.js';

/** The webhook path's prefix, the reference's own. */
export const WEBHOOK_PREFIX = WEBHOOK_PATH_PREFIX;
export const TOKEN_PATH = '/auth/v1/token';

/** A listener of the tenant by its role in the profile (`hmac`, `jwt`, …). */
export type NamedListener = { name: string } & ({ kind: 'HMAC'; listener: TenantHmacListener } | { kind: 'JWT'; listener: TenantJwtListener });

/** What stays the same for every refusal of one sandbox: its tenant and listeners, its clock, its tokens. */
export interface SandboxFacts {
  readonly tenant: Tenant;
  readonly listeners: ReadonlyMap<string, NamedListener>;
  readonly now: () => number;
  readonly issued: IssuedTokens;
}

export function sandboxFacts(tenant: Tenant, now: () => number, issued: IssuedTokens): SandboxFacts {
  const listeners = new Map<string, NamedListener>();
  for (const [name, listener] of Object.entries(tenant.listeners)) {
    const named = 'secret' in listener ? { name, kind: 'HMAC' as const, listener } : { name, kind: 'JWT' as const, listener: listener as TenantJwtListener };
    listeners.set(listener.listenerId, named);
  }
  return { tenant, listeners, now, issued };
}

export class RefusedRequest {
  /** The path as received, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The reference's clock when the diagnosis began (Unix seconds). */
  readonly now: number;
  #hmac: HmacProbe | undefined;
  #form: URLSearchParams | undefined;
  #jwt: { token: string; decoded: DecodedJwt } | null | undefined;

  constructor(
    readonly request: ReferenceRequest,
    readonly status: number,
    readonly error: string,
    /** The reference's error_description. */
    readonly description: string,
    readonly sandbox: SandboxFacts,
  ) {
    const q = request.url.indexOf('?');
    this.path = q < 0 ? request.url : request.url.slice(0, q);
    this.query = new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1));
    this.now = sandbox.now();
  }

  get tenant(): Tenant {
    return this.sandbox.tenant;
  }

  header(name: string): string | undefined {
    return this.request.headers[name];
  }

  /** The listener ID of a webhook path, as the reference decodes it. */
  get listenerId(): string | undefined {
    if (!this.path.startsWith(WEBHOOK_PREFIX)) return undefined;
    const raw = this.path.slice(WEBHOOK_PREFIX.length);
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }

  get listener(): NamedListener | undefined {
    const id = this.listenerId;
    return id === undefined ? undefined : this.sandbox.listeners.get(id);
  }

  /** The listener's full URL: the `aud` its JWTs must carry. */
  get listenerUrl(): string {
    return `${this.tenant.baseUrl}${WEBHOOK_PREFIX}${encodeURIComponent(this.listenerId ?? '')}`;
  }

  /** The HMAC candidates of this request (a fixed, bounded set of MACs: hmac-probe.ts). */
  get hmac(): HmacProbe {
    this.#hmac ??= new HmacProbe(this.request, this.header('webhook-signature') ?? '');
    return this.#hmac;
  }

  /** The body read as a form (the token endpoint). */
  get form(): URLSearchParams {
    this.#form ??= new URLSearchParams(this.request.body.toString('utf8'));
    return this.#form;
  }

  /** The JWT this request carries (the webhook's bearer or the client assertion), decoded without trust. */
  get jwt(): { token: string; decoded: DecodedJwt } | undefined {
    if (this.#jwt === undefined) {
      const token = this.path === TOKEN_PATH ? this.form.get('client_assertion') : /^\s*bearer\s+(\S+)\s*$/i.exec(this.header('authorization') ?? '')?.[1];
      this.#jwt = token === null || token === undefined ? null : { token, decoded: decodeJwtParts(token) };
    }
    return this.#jwt ?? undefined;
  }

  claim(name: string): unknown {
    return this.jwt?.decoded.payload?.[name];
  }
}
