/**
 * From a parsed profile document to a {@link ResolvedProfile}: schema check, `{"env"}` / `{"file"}`
 * resolution, checks the schema cannot express (URLs, credential formats, keys), defaults, and the list of
 * secrets to redact. Every problem of one kind is reported at once, and no message holds a secret value.
 */
import { resolve as resolvePath } from 'node:path';
import {
  ClientIdError,
  ClientSecretError,
  isHostname,
  parseClientId,
  parseClientSecret,
  privateJwkValues,
} from '../crypto/index.js';
import { HarnessError } from '../errors.js';
import {
  CREDENTIAL_KEYS,
  HMAC_LISTENER_KEYS,
  JWT_LISTENER_KEYS,
  type ProfileDocument,
  type SecretRef,
} from './document.js';
import { cidrsOf, parseCidrBlock } from './cidr.js';
import { formatProfileErrors, validateProfileDocument, type ProfileProblem } from './schema.js';
import { SourceReader, type Missing } from './sources.js';
import { checkJwtListener, readJwtListener } from './jwt-listener.js';
import type { ResolvedJwtListener, ResolvedProfile } from './types.js';
import { WEBHOOK_BODY_MAX_BYTES } from '../spec-numbers.js';

export interface ResolveOptions {
  /** Directory relative file paths in the profile are resolved against (the profile file's directory). */
  baseDir: string;
  /** Where `{"env": NAME}` values come from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Shown in messages, e.g. the profile's path. */
  source?: string;
}


export async function resolveProfile(raw: unknown, options: ResolveOptions): Promise<ResolvedProfile> {
  const schema = validateProfileDocument(raw);
  if (!schema.ok) throw invalid(schema.errors, options.source);
  const doc = raw as ProfileDocument;
  // Three phases, each reporting all of its problems at once: what the document alone gets wrong (before
  // reading any variable or file, so a typo in a URL is not hidden behind a missing file), then every
  // variable and file, then the values read.
  const urls = checkDocument(doc, options.source);
  const values = await readValues(doc, new SourceReader(options.baseDir, options.env ?? process.env), options.source);
  const secrets = checkValues(doc, values, options.source);
  return withOperations(assemble(doc, urls, values, secrets), doc, options.baseDir);
}

interface DocumentUrls {
  baseUrl: string;
  webhookBaseUrl: string;
  hooksBaseUrl: string | undefined;
  /** The primary Client ID's hostname, when it parses. */
  primaryHost: string | undefined;
}

/** Phase 1: URLs, hostnames, CIDR blocks and JWKS settings, from the document alone. */
function checkDocument(doc: ProfileDocument, source: string | undefined): DocumentUrls {
  const problems: ProfileProblem[] = [];
  const baseUrl = checkUrl(doc.baseUrl, 'baseUrl', problems);
  const webhookBaseUrl = doc.webhookBaseUrl === undefined ? baseUrl : checkUrl(doc.webhookBaseUrl, 'webhookBaseUrl', problems);
  const hooksBaseUrl = doc.hooks === undefined ? undefined : checkUrl(doc.hooks.baseUrl, 'hooks.baseUrl', problems);
  if (doc.tenantDomain !== undefined && !isHostname(doc.tenantDomain)) {
    problems.push({ path: 'tenantDomain', message: 'must be a bare hostname like tenant.example.com (no scheme, port or path)' });
  }
  let primaryHost: string | undefined;
  for (const key of CREDENTIAL_KEYS) {
    const credential = doc.credentials[key];
    if (!credential) continue;
    // A malformed Client ID is the target's non-conformance (the CRED checks report it), not a harness error:
    // the harness can still send it verbatim. Only the tenant domain, when derived from it, is needed here.
    try {
      const parsed = parseClientId(credential.clientId);
      if (key === 'primary') primaryHost = parsed.hostname;
    } catch (error) {
      if (!(error instanceof ClientIdError)) throw error;
      if (key === 'primary' && doc.tenantDomain === undefined) {
        problems.push({
          path: `credentials.${key}.clientId`,
          message: `${error.message} (${error.reason}); the tenant domain cannot be derived from it: set tenantDomain in the profile`,
        });
      }
    }
  }
  checkAllowedCidrs(doc, problems);
  for (const key of JWT_LISTENER_KEYS) {
    const serve = doc.webhooks?.[key]?.serveJwks;
    if (!serve) continue;
    if (!serve.url.startsWith('https://')) {
      problems.push({ path: `webhooks.${key}.serveJwks.url`, message: 'must be an https URL (service.md §2.5: the JWKS URL is HTTPS)' });
    }
    if ((serve.tlsCertFile === undefined) !== (serve.tlsKeyFile === undefined)) {
      problems.push({ path: `webhooks.${key}.serveJwks`, message: 'needs both tlsCertFile and tlsKeyFile, or neither' });
    }
  }
  if (problems.length > 0) throw invalid(problems, source);
  return { baseUrl, webhookBaseUrl, hooksBaseUrl, primaryHost };
}

interface ReadValues {
  credentialSecrets: Map<string, string>;
  hmacSecrets: Map<string, string>;
  hooksToken: string | undefined;
  jwtListeners: Map<string, ResolvedJwtListener>;
  ca: string | undefined;
  /** Problems found while reading keys (checked with the values in phase 3). */
  problems: ProfileProblem[];
}

/** Phase 2: every variable and file, so all missing ones are reported together. */
async function readValues(doc: ProfileDocument, reader: SourceReader, source: string | undefined): Promise<ReadValues> {
  const problems: ProfileProblem[] = [];
  const secretOf = (ref: SecretRef, field: string): string | undefined => (typeof ref === 'string' ? ref : reader.fromEnv(ref.env, field));

  const credentialSecrets = new Map<string, string | undefined>();
  for (const key of CREDENTIAL_KEYS) {
    const credential = doc.credentials[key];
    if (credential) credentialSecrets.set(key, secretOf(credential.clientSecret, `credentials.${key}.clientSecret`));
  }
  const hmacSecrets = new Map<string, string | undefined>();
  for (const key of HMAC_LISTENER_KEYS) {
    const listener = doc.webhooks?.[key];
    if (listener) hmacSecrets.set(key, secretOf(listener.secret, `webhooks.${key}.secret`));
  }
  const hooksToken = doc.hooks?.token === undefined ? undefined : secretOf(doc.hooks.token, 'hooks.token');
  const jwtListeners = new Map<string, ResolvedJwtListener>();
  for (const key of JWT_LISTENER_KEYS) {
    const listener = doc.webhooks?.[key];
    if (listener) jwtListeners.set(key, await readJwtListener(listener, `webhooks.${key}`, reader, problems));
  }
  const ca = doc.tls?.caFile === undefined ? undefined : await reader.fromFile(doc.tls.caFile, 'tls.caFile');

  if (reader.missingSecrets.length > 0) {
    throw new HarnessError('PROFILE_SECRET_MISSING', missingMessage(reader.missingSecrets, source, 'environment variable'), {
      field: reader.missingSecrets[0]?.field,
      hint: 'Set each variable before running (e.g. export NAME=value), or put the value in the profile.',
    });
  }
  if (reader.missingFiles.length > 0) {
    throw new HarnessError('PROFILE_FILE_MISSING', missingMessage(reader.missingFiles, source, 'file'), {
      field: reader.missingFiles[0]?.field,
      hint: 'Relative paths are resolved against the directory of the profile file.',
    });
  }
  // Nothing is missing past this point: every secret was read.
  return { credentialSecrets: credentialSecrets as Map<string, string>, hmacSecrets: hmacSecrets as Map<string, string>, hooksToken, jwtListeners, ca, problems };
}

/** Phase 3: the values read (credential formats, keys, PEM files); returns every secret to redact. */
function checkValues(doc: ProfileDocument, values: ReadValues, source: string | undefined): string[] {
  const { problems } = values;
  const secrets: string[] = [];
  for (const key of CREDENTIAL_KEYS) {
    if (!doc.credentials[key]) continue;
    const secret = values.credentialSecrets.get(key)!;
    secrets.push(secret);
    // A malformed Client Secret is likewise reported by the CRED checks; the secret method still sends it as
    // given, and checks that must sign with it are skipped with the reason. Redact whatever parts it has.
    const encodedPart = secret.split(':')[3];
    if (encodedPart) secrets.push(encodedPart);
    try {
      const parsed = parseClientSecret(secret);
      secrets.push(...privateJwkValues(parsed.privateJwk));
    } catch (error) {
      if (!(error instanceof ClientSecretError)) throw error;
    }
  }
  for (const [key, listener] of values.jwtListeners) checkJwtListener(listener, `webhooks.${key}`, problems);
  if (values.ca !== undefined && !values.ca.includes('-----BEGIN CERTIFICATE-----')) {
    problems.push({ path: 'tls.caFile', message: 'file holds no PEM certificate (-----BEGIN CERTIFICATE-----)' });
  }
  if (problems.length > 0) throw invalid(problems, source);

  for (const secret of values.hmacSecrets.values()) secrets.push(secret);
  if (values.hooksToken !== undefined) secrets.push(values.hooksToken);
  for (const listener of values.jwtListeners.values()) {
    for (const key of listener.signingKeys) secrets.push(...privateJwkValues(key));
    if (listener.serveJwks?.tlsKey !== undefined) secrets.push(listener.serveJwks.tlsKey);
  }
  return secrets;
}

/**
 * The OpenAPI description's source (a URL as written, a file made absolute against the profile's folder:
 * loaded by the run, not here) and the operations named by hand, copied.
 */
function withOperations(resolved: ResolvedProfile, doc: ProfileDocument, baseDir: string): ResolvedProfile {
  if (doc.openapi !== undefined) resolved.openapi = /^https?:\/\//i.test(doc.openapi) ? doc.openapi : resolvePath(baseDir, doc.openapi);
  if (doc.operations !== undefined) resolved.operations = doc.operations.map((op) => structuredClone(op));
  if (doc.scope !== undefined) resolved.scope = structuredClone(doc.scope);
  return resolved;
}

/** The resolved profile, defaults applied. */
function assemble(doc: ProfileDocument, urls: DocumentUrls, values: ReadValues, secrets: string[]): ResolvedProfile {
  const resolved: ResolvedProfile = {
    version: 1,
    name: doc.name ?? new URL(urls.baseUrl).host,
    baseUrl: urls.baseUrl,
    tenantDomain: doc.tenantDomain ?? (urls.primaryHost as string),
    webhookBaseUrl: urls.webhookBaseUrl,
    tls: { insecureSkipVerify: doc.tls?.insecureSkipVerify ?? false, ...(values.ca === undefined ? {} : { ca: values.ca }) },
    credentials: {
      primary: { clientId: doc.credentials.primary.clientId, clientSecret: values.credentialSecrets.get('primary')!, ...cidrsOf(doc.credentials.primary) },
    },
    apps: {
      ...(doc.apps?.owners === undefined ? {} : { owners: { ...doc.apps.owners } }),
      ...(doc.apps?.missingAppId === undefined ? {} : { missingAppId: doc.apps.missingAppId }),
      entitlements: { ...(doc.apps?.entitlements ?? {}) },
    },
    webhooks: {},
    limits: { webhookBodyBytes: doc.limits?.webhookBodyBytes ?? WEBHOOK_BODY_MAX_BYTES },
    // Longest first, so a redactor replacing in order never leaves the tail of a longer secret behind.
    secrets: [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length),
  };
  for (const key of ['ipRestricted', 'expired'] as const) {
    const credential = doc.credentials[key];
    if (credential) {
      resolved.credentials[key] = { clientId: credential.clientId, clientSecret: values.credentialSecrets.get(key)!, ...cidrsOf(credential) };
    }
  }
  for (const key of HMAC_LISTENER_KEYS) {
    const listener = doc.webhooks?.[key];
    if (listener) resolved.webhooks[key] = { listenerId: listener.listenerId, secret: values.hmacSecrets.get(key)!, ...cidrsOf(listener) };
  }
  for (const key of JWT_LISTENER_KEYS) {
    const listener = values.jwtListeners.get(key);
    if (listener) resolved.webhooks[key] = listener;
  }
  if (urls.hooksBaseUrl !== undefined) resolved.hooks = { baseUrl: urls.hooksBaseUrl, ...(values.hooksToken === undefined ? {} : { token: values.hooksToken }) };
  return resolved;
}

/** Every `allowedCidrs` entry is an IPv4 or IPv6 block (`address/prefix`, or a bare address). */
function checkAllowedCidrs(doc: ProfileDocument, problems: ProfileProblem[]): void {
  const holders: Array<[string, { allowedCidrs?: string[] } | undefined]> = [
    ...CREDENTIAL_KEYS.map((key): [string, { allowedCidrs?: string[] } | undefined] => [`credentials.${key}`, doc.credentials[key]]),
    ...[...HMAC_LISTENER_KEYS, ...JWT_LISTENER_KEYS].map((key): [string, { allowedCidrs?: string[] } | undefined] => [`webhooks.${key}`, doc.webhooks?.[key]]),
  ];
  for (const [path, holder] of holders) {
    holder?.allowedCidrs?.forEach((text, index) => {
      if (parseCidrBlock(text) === undefined) {
        problems.push({ path: `${path}.allowedCidrs[${index}]`, message: 'must be a CIDR block like 203.0.113.0/24 or 2001:db8::/32' });
      }
    });
  }
}

function invalid(problems: ProfileProblem[], source: string | undefined): HarnessError {
  return new HarnessError('PROFILE_INVALID', formatProfileErrors(problems, source), {
    field: problems[0]?.path,
    hint: 'Fix the fields listed above; docs/profile.md describes each one.',
  });
}

function missingMessage(missing: Missing[], source: string | undefined, kind: string): string {
  const where = source ? `The target profile ${source}` : 'The target profile';
  const lines = missing.map((m) => `  - ${m.field}: ${kind} ${m.what} ${kind === 'file' ? `cannot be read (${m.why})` : m.why}`);
  return [`${where} needs ${missing.length === 1 ? `a ${kind}` : `${missing.length} ${kind}s`} that ${missing.length === 1 ? 'is' : 'are'} not available:`, ...lines].join('\n');
}

/**
 * http(s) only, no credentials, query or fragment. One trailing slash is accepted and stripped, because
 * `https://host/` is how many tools print a base URL and every path is joined to it with a leading `/`.
 */
function checkUrl(value: string, path: string, problems: ProfileProblem[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push({ path, message: 'must be an absolute URL like https://tenant.example.com' });
    return value;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push({ path, message: 'must use http or https, like https://tenant.example.com' });
  } else if (url.username !== '' || url.password !== '') {
    problems.push({ path, message: 'must not hold a user name or password; credentials go in "credentials"' });
  } else if (url.search !== '' || url.hash !== '' || value.endsWith('?') || value.endsWith('#')) {
    problems.push({ path, message: 'must not have a query or fragment' });
  }
  const stripped = value.endsWith('/') ? value.slice(0, -1) : value;
  if (stripped.endsWith('/')) problems.push({ path, message: 'must not end with "/"' });
  return stripped;
}
