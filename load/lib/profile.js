// The parts of a target profile the scripts need, with `{"env": NAME}` secrets resolved from the
// environment (k6 passes the shell's variables in __ENV). Pure. Errors name the field and the variable,
// never a secret value.

/**
 * @typedef {object} ScriptProfile
 * @property {string} name
 * @property {string} baseUrl no trailing slash
 * @property {string} webhookBaseUrl no trailing slash
 * @property {boolean} insecureSkipVerify
 * @property {number} webhookBodyBytes
 * @property {Record<string, unknown>} raw the parsed profile, secrets unresolved
 */

/**
 * @typedef {object} HmacTarget
 * @property {string} listenerId
 * @property {string} secret
 */

/**
 * @typedef {object} CredentialTarget
 * @property {string} clientId
 * @property {string} clientSecret
 */

/**
 * The profile's path from -e PROFILE; the script opens it (k6's open() belongs to the script's init code).
 * @param {Record<string, string | undefined>} env
 * @returns {string}
 */
export function profilePath(env) {
  if (!env.PROFILE) throw new Error('Set -e PROFILE=/absolute/path/to/target.json (k6 resolves relative paths from the script folder)');
  return env.PROFILE;
}

/**
 * Refuses a BODY_BYTES the target would answer 413 to: every request of the run would be an error.
 * @param {number} bodyBytes
 * @param {ScriptProfile} profile
 */
export function requireBodyWithinLimit(bodyBytes, profile) {
  if (bodyBytes > profile.webhookBodyBytes) {
    throw new Error('BODY_BYTES=' + bodyBytes + ' is over the target limit of ' + profile.webhookBodyBytes + ' bytes');
  }
}

/**
 * @param {string} text JSON of a target profile
 * @returns {ScriptProfile}
 */
export function parseProfile(text) {
  /** @type {any} */
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error('PROFILE is not valid JSON: ' + String(error));
  }
  if (raw === null || typeof raw !== 'object' || raw.version !== 1) {
    throw new Error('PROFILE is not a version 1 target profile');
  }
  if (typeof raw.baseUrl !== 'string' || !/^https?:\/\//.test(raw.baseUrl)) {
    throw new Error('PROFILE baseUrl must be an http(s) URL');
  }
  const baseUrl = trimSlash(raw.baseUrl);
  const limits = raw.limits || {};
  return {
    name: typeof raw.name === 'string' ? raw.name : baseUrl,
    baseUrl,
    webhookBaseUrl: typeof raw.webhookBaseUrl === 'string' ? trimSlash(raw.webhookBaseUrl) : baseUrl,
    insecureSkipVerify: Boolean(raw.tls && raw.tls.insecureSkipVerify),
    webhookBodyBytes: typeof limits.webhookBodyBytes === 'number' ? limits.webhookBodyBytes : 65536,
    raw,
  };
}

/**
 * An HMAC listener of the profile (`hmac` by default) with its secret resolved.
 * @param {ScriptProfile} profile
 * @param {Record<string, string | undefined>} env
 * @param {string} [key]
 * @returns {HmacTarget}
 */
export function hmacListener(profile, env, key) {
  const name = key || 'hmac';
  const webhooks = /** @type {Record<string, any>} */ (profile.raw.webhooks || {});
  const listener = webhooks[name];
  if (!listener || typeof listener.listenerId !== 'string') {
    throw new Error('PROFILE has no webhooks.' + name + ' listener');
  }
  return { listenerId: listener.listenerId, secret: secretValue(listener.secret, env, 'webhooks.' + name + '.secret') };
}

/**
 * The primary API credential with its secret resolved.
 * @param {ScriptProfile} profile
 * @param {Record<string, string | undefined>} env
 * @returns {CredentialTarget}
 */
export function primaryCredential(profile, env) {
  const credentials = /** @type {Record<string, any>} */ (profile.raw.credentials || {});
  const primary = credentials.primary;
  if (!primary || typeof primary.clientId !== 'string') throw new Error('PROFILE has no credentials.primary');
  return {
    clientId: primary.clientId,
    clientSecret: secretValue(primary.clientSecret, env, 'credentials.primary.clientSecret'),
  };
}

/**
 * A profile secret: a literal string or `{"env": NAME}`.
 * @param {unknown} ref
 * @param {Record<string, string | undefined>} env
 * @param {string} field
 * @returns {string}
 */
export function secretValue(ref, env, field) {
  if (typeof ref === 'string' && ref.length > 0) return ref;
  if (ref && typeof ref === 'object' && typeof (/** @type {any} */ (ref)).env === 'string') {
    const name = /** @type {any} */ (ref).env;
    const value = env[name];
    if (value === undefined || value === '') {
      throw new Error('PROFILE ' + field + ' reads the environment variable ' + name + ', which is not set');
    }
    return value;
  }
  throw new Error('PROFILE ' + field + ' must be a string or {"env": NAME}');
}

/** @param {string} url */
function trimSlash(url) {
  return url.replace(/\/+$/, '');
}
