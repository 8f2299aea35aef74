/**
 * The token endpoint (service.md §4.1, §5.3): the raw exchange with every field breakable, and a cache of
 * access tokens per credential and grant method, refreshed before `expires_in` runs out.
 */
import { buildClientAssertion } from '../crypto/index.js';
import { HarnessError } from '../errors.js';
import type { CredentialKey, ResolvedCredential, ResolvedProfile } from '../profile/types.js';
import type { InternalRecorder } from './recorder.js';
import type { RecipeContext } from './replay-context.js';
import { tokenRecipe } from './replay-recipe.js';
import type { Transport } from './transport.js';
import type { AccessToken, HttpResponse, TokenRequestOptions } from './types.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Refresh this long before expiry: min(30 s, 10 % of the lifetime), so short test tokens still get used. */
export function refreshMarginSeconds(expiresIn: number): number {
  return Math.min(30, expiresIn * 0.1);
}

type GrantMethod = TokenRequestOptions['method'];

interface CachedToken {
  token: AccessToken;
  /** Epoch ms (local clock) after which the token is fetched again. */
  refreshAt: number;
}

/** Credentials inside a token response, so the recorder redacts them before storing the exchange. */
function tokensInBody(_status: number, body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    return ['access_token', 'refresh_token', 'id_token']
      .map((field) => parsed[field])
      .filter((value): value is string => typeof value === 'string');
  } catch {
    return [];
  }
}

/** The client-authentication fields, removed from `fields` when they are to travel outside the body. */
function credentialFields(fields: Record<string, string>, where: 'body' | 'basic' | 'query'): Record<string, string> {
  const moved: Record<string, string> = {};
  if (where === 'body') return moved;
  for (const name of ['client_id', 'client_secret', 'client_assertion_type', 'client_assertion']) {
    const value = fields[name];
    if (value !== undefined) {
      moved[name] = value;
      delete fields[name];
    }
  }
  return moved;
}

export class TokenManager {
  private readonly cache = new Map<string, CachedToken>();
  /** Every access token obtained for API calls: the transport's guard keeps each on the baseUrl's origin (ruling 35). */
  private readonly issued = new Set<string>();
  private readonly inflight = new Map<string, Promise<AccessToken>>();

  constructor(
    private readonly profile: ResolvedProfile,
    private readonly transport: Transport,
    private readonly recorder: InternalRecorder,
    private readonly now: () => Promise<number>,
    private readonly recipes?: RecipeContext,
  ) {}

  private credential(key: CredentialKey): ResolvedCredential {
    const credential = this.profile.credentials[key];
    if (!credential) {
      throw new HarnessError('USAGE', `the profile has no credentials.${key}`, {
        field: `credentials.${key}`,
        hint: `Add credentials.${key} to the target profile, or do not run the checks that need it.`,
      });
    }
    return credential;
  }

  async requestToken(options: TokenRequestOptions): Promise<HttpResponse> {
    const key = options.credential ?? 'primary';
    const credential = this.credential(key);
    const fields: Record<string, string> = { grant_type: 'client_credentials', client_id: options.clientId ?? credential.clientId };
    let builtAt: number | undefined;
    const clientSecret = options.clientSecret ?? credential.clientSecret;
    this.recorder.addSecret(clientSecret);
    if (options.method === 'secret') {
      fields.client_secret = clientSecret;
    } else {
      const assertionOptions = options.assertion ?? {};
      const now = assertionOptions.now ?? Math.floor(await this.now());
      builtAt = now;
      const assertion = await buildClientAssertion({
        ...assertionOptions,
        clientId: credential.clientId,
        clientSecret,
        audience: this.profile.tenantDomain,
        now,
      });
      this.recorder.addSecret(assertion);
      fields.client_assertion_type = CLIENT_ASSERTION_TYPE;
      fields.client_assertion = assertion;
    }
    for (const [name, value] of Object.entries(options.form ?? {})) {
      if (value === null) delete fields[name];
      else {
        fields[name] = value;
        if (name === 'client_secret' || name === 'client_assertion') this.recorder.addSecret(value);
      }
    }
    const headers: Record<string, string> = {
      'content-type': options.asJson ? 'application/json' : 'application/x-www-form-urlencoded',
      accept: 'application/json',
      ...(options.headers ?? {}),
    };
    let query = '';
    const moved = credentialFields(fields, options.credentialsIn ?? 'body');
    if (options.credentialsIn === 'basic') {
      // RFC 6749 §2.3.1: each part form-urlencoded, then joined by ':' and base64-encoded.
      const encode = (value: string | undefined): string => new URLSearchParams({ v: value ?? '' }).toString().slice(2);
      const basic = Buffer.from(`${encode(moved.client_id)}:${encode(moved.client_secret)}`).toString('base64');
      this.recorder.addSecret(basic);
      headers.authorization = `Basic ${basic}`;
    } else if (options.credentialsIn === 'query') {
      query = `?${new URLSearchParams(moved).toString()}`;
    }
    const body = options.asJson ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    return this.transport.send({
      ...(this.recipes ? { replay: tokenRecipe(options, this.recipes.encoding(builtAt)) } : {}),
      method: 'POST',
      url: `${this.profile.baseUrl}/auth/v1/token${query}`,
      headers,
      body,
      label: options.label ?? `token: ${options.method === 'secret' ? 'client secret' : 'client assertion'} (credentials.${key})`,
      secretsIn: tokensInBody,
    });
  }

  async token(credential: CredentialKey = 'primary', method: GrantMethod = 'secret'): Promise<AccessToken> {
    const key = `${credential}:${method}`;
    const cached = this.cache.get(key);
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.obtain(credential, method).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async obtain(credential: CredentialKey, method: GrantMethod): Promise<AccessToken> {
    const response = await this.requestToken({ method, credential, label: `token: obtain for API calls (credentials.${credential}, ${method})` });
    const body = response.json() as Record<string, unknown> | undefined;
    const accessToken = body?.access_token;
    const expiresIn = body?.expires_in;
    if (response.status !== 200 || typeof accessToken !== 'string' || accessToken === '' || typeof expiresIn !== 'number' || !(expiresIn > 0)) {
      throw new HarnessError(
        'TOKEN_UNAVAILABLE',
        `the token endpoint gave no usable token for credentials.${credential} with the ${method === 'secret' ? 'client secret' : 'client assertion'} method (status ${response.status})`,
        {
          field: `credentials.${credential}`,
          hint: 'Checks that call the API need a token: check the credential in the profile and the token endpoint (the token suite shows what is wrong with it).',
        },
      );
    }
    this.recorder.addSecret(accessToken);
    this.issued.add(accessToken);
    this.recipes?.noteToken(accessToken, credential, method);
    const token: AccessToken = {
      accessToken,
      tokenType: typeof body?.token_type === 'string' ? body.token_type : 'Bearer',
      expiresIn,
      obtainedAt: Date.now(),
    };
    const refreshAt = token.obtainedAt + (expiresIn - refreshMarginSeconds(expiresIn)) * 1000;
    this.cache.set(`${credential}:${method}`, { token, refreshAt });
    return token;
  }

  /** Drops a cached token (after a 401), unless it was already replaced by a newer one. */
  invalidate(credential: CredentialKey, method: GrantMethod, accessToken: string): void {
    const key = `${credential}:${method}`;
    if (this.cache.get(key)?.token.accessToken === accessToken) this.cache.delete(key);
  }

  reset(): void {
    this.cache.clear();
  }

  /** Whether `value` is an access token this manager obtained (and so may go only to the baseUrl's origin). */
  isIssued(value: string): boolean {
    return this.issued.has(value);
  }
}
