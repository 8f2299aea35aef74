/**
 * A request's recipe in portable JSON (issue 23: a failure's reproduction must still work minutes later,
 * against a new `serve` of the same fault). What goes stale or differs between targets is written as a
 * marker, not as a value, and made anew when the recipe is replayed (replay.ts):
 * - `{"$now": n}` / `{"$nowText": n}`: a Unix time n seconds from the target's clock, as a number / text;
 *   `{"$nowMs": n}`, `{"$nowIso": n, "fraction": bool}`: n milliseconds from it, as Unix milliseconds / ISO 8601;
 * - `{"$eventId": true}`: the replay's own fresh event ID;
 * - `{"$profile": "webhooks.hmac.secret"}`: a value of the profile (secrets, IDs): never written out;
 * - `{"$token": "primary:secret"}`: an access token obtained when replaying;
 * - `{"$otherSecret": true}`, `{"$otherKey": {alg, kid}}`: a fresh secret or key that is not the target's
 *   (the check only needs *another* one), `{"$publicOf": "key"}`: that key's public JWK;
 * - `{"$bytes": base64}`: bytes that are not UTF-8 text; `{"$concat": [...]}`: a text holding markers.
 * A value that cannot travel (a function of the check, a certificate or a credential made during the run)
 * makes the recipe unavailable, with the reason: the report then says to use the rerun line.
 */
import type { ResolvedProfile } from '../profile/types.js';

export type Portable = null | boolean | number | string | Portable[] | { [key: string]: Portable };

/** Why a request has no recipe (the report shows it beside the rerun line). */
export class NotPortable extends Error {}

/** A Unix time in seconds within this of the send time is taken for a time and written relative to it. */
const NEAR_SECONDS = 10 * 24 * 3600;

export interface EncodeContext {
  /** Unix seconds the request was built at (the target's clock). */
  now: number;
  /** Exact values to write as markers (profile values, tokens, the request's event ID), longest first. */
  known: ReadonlyArray<readonly [string, Portable]>;
  /** Whether a text still carries a credential (the recorder's rules). */
  carriesSecret(text: string): boolean;
  /** A secret the check made up may be replaced by any other (an HMAC "another secret" check). */
  otherSecretOk?: boolean;
}

/** Profile values a request may carry, each with the marker naming it (secrets and per-target IDs). */
export function profileValues(profile: ResolvedProfile): Array<[string, Portable]> {
  const out: Array<[string, Portable]> = [];
  const add = (value: string | undefined, path: string): void => {
    if (value !== undefined && value !== '' && !out.some(([known]) => known === value)) out.push([value, { $profile: path }]);
  };
  // Addresses first: a replay goes to whatever target the profile it is given names.
  add(profile.baseUrl, 'baseUrl');
  add(profile.webhookBaseUrl, 'webhookBaseUrl');
  add(profile.hooks?.token, 'hooks.token');
  for (const [key, credential] of Object.entries(profile.credentials)) {
    if (!credential) continue;
    add(credential.clientSecret, `credentials.${key}.clientSecret`);
    add(credential.clientId, `credentials.${key}.clientId`);
  }
  // App IDs differ between targets (and between `serve` seeds): a path names them through the profile.
  add(profile.apps.owners?.appId, 'apps.owners.appId');
  add(profile.apps.missingAppId, 'apps.missingAppId');
  for (const [key, app] of Object.entries(profile.apps.entitlements)) add(app?.appId, `apps.entitlements.${key}.appId`);
  for (const [key, listener] of Object.entries(profile.webhooks)) {
    if (!listener) continue;
    add(listener.listenerId, `webhooks.${key}.listenerId`);
    if ('secret' in listener) add(listener.secret, `webhooks.${key}.secret`);
  }
  return out.sort((a, b) => b[0].length - a[0].length);
}

/** The profile's signing keys with their paths, for {@link EncodeOptions.profileKeys}. */
export function profileKeys(profile: ResolvedProfile): Array<[Record<string, unknown>, string]> {
  const out: Array<[Record<string, unknown>, string]> = [];
  for (const [key, listener] of Object.entries(profile.webhooks)) {
    if (!listener || !('signingKeys' in listener)) continue;
    listener.signingKeys.forEach((jwk, index) => out.push([jwk as unknown as Record<string, unknown>, `webhooks.${key}.signingKeys.${index}`]));
  }
  return out;
}

function isNearNow(seconds: number, now: number): boolean {
  return Number.isSafeInteger(seconds) && Math.abs(seconds - now) <= NEAR_SECONDS;
}

/** A time written as text near the send time: Unix seconds, Unix milliseconds, or ISO 8601 in UTC. */
function encodeTime(text: string, now: number): Portable | undefined {
  const seconds = Math.floor(now);
  if (/^\d{9,11}$/.test(text) && isNearNow(Number(text), seconds)) return { $nowText: Number(text) - seconds };
  if (/^\d{12,14}$/.test(text) && isNearNow(Math.floor(Number(text) / 1000), seconds)) return { $nowMs: Number(text) - seconds * 1000 };
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.exec(text);
  if (iso) {
    const ms = Date.parse(text);
    if (Number.isFinite(ms) && isNearNow(Math.floor(ms / 1000), seconds)) return { $nowIso: ms - seconds * 1000, fraction: iso[1] !== undefined };
  }
  return undefined;
}

function encodeText(text: string, ctx: EncodeContext): Portable {
  const time = encodeTime(text, ctx.now);
  if (time !== undefined) return time;
  const parts: Portable[] = [];
  let rest = text;
  // Longest first, so a token is not split by a shorter value inside it.
  outer: while (rest !== '') {
    let best: { at: number; value: string; marker: Portable } | undefined;
    for (const [value, marker] of ctx.known) {
      const at = rest.indexOf(value);
      if (at >= 0 && (best === undefined || at < best.at || (at === best.at && value.length > best.value.length))) best = { at, value, marker };
    }
    if (best === undefined) {
      parts.push(rest);
      break outer;
    }
    if (best.at > 0) parts.push(rest.slice(0, best.at));
    parts.push(best.marker);
    rest = rest.slice(best.at + best.value.length);
  }
  const literal = parts.filter((part): part is string => typeof part === 'string').join('\u0000');
  if (literal !== '' && ctx.carriesSecret(literal)) {
    if (ctx.otherSecretOk && parts.length === 1) return { $otherSecret: true };
    throw new NotPortable('it carries a credential, token or signature made or aged during the run (only the run can make it again)');
  }
  if (parts.length === 1) return parts[0]!;
  return { $concat: parts };
}

/** A private JWK (it has `d`): the profile's own key by its path, else a fresh key of the same kind. */
function encodeKey(jwk: Record<string, unknown>, profileKeys: ReadonlyArray<readonly [Record<string, unknown>, string]>): Portable {
  for (const [key, path] of profileKeys) {
    if (key.d === jwk.d && key.kid === jwk.kid) return { $profile: path };
  }
  if (typeof jwk.alg !== 'string') throw new NotPortable('it is signed by a key without an alg made during the run');
  return { $otherKey: { alg: jwk.alg, ...(typeof jwk.kid === 'string' ? { kid: jwk.kid } : {}) } };
}

export interface EncodeOptions extends EncodeContext {
  /** The profile's signing keys with their paths (a `key` option naming one is written as that path). */
  profileKeys?: ReadonlyArray<readonly [Record<string, unknown>, string]>;
}

/** Any option value as portable JSON (see the module comment); throws NotPortable. */
export function encodePortable(value: unknown, ctx: EncodeOptions): Portable {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NotPortable('it holds a number JSON cannot write');
    return isNearNow(value, Math.floor(ctx.now)) ? { $now: value - Math.floor(ctx.now) } : value;
  }
  if (typeof value === 'string') return encodeText(value, ctx);
  if (value instanceof Uint8Array) {
    const bytes = Buffer.from(value);
    const text = bytes.toString('utf8');
    return Buffer.from(text, 'utf8').equals(bytes) ? encodeText(text, ctx) : { $bytes: bytes.toString('base64') };
  }
  if (typeof value === 'function') throw new NotPortable('part of it is built by a function of the check');
  if (typeof value !== 'object') throw new NotPortable(`it holds a ${typeof value}`);
  if (Array.isArray(value)) return value.map((item) => encodePortable(item, ctx));
  const record = value as Record<string, unknown>;
  if (typeof record.kty === 'string' && typeof record.d === 'string') return encodeKey(record, ctx.profileKeys ?? []);
  if (Array.isArray(record.x5c)) throw new NotPortable('it carries a certificate made during the run');
  const out: Record<string, Portable> = {};
  for (const [key, item] of Object.entries(record)) {
    if (item === undefined) continue;
    out[key] = encodePortable(item, ctx);
  }
  return out;
}
