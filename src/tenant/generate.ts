/**
 * generateTenant: one complete tenant for the reference. The seed decides every name and ID (Client IDs,
 * apps, owners, entitlements, listener IDs), so two sandboxes with one seed list the same things; keys and
 * secrets are fresh randomness (but for the RS256 signing key, made once per machine: key-cache.ts) and never
 * written anywhere but the profile and its PEM files.
 */
import { DEFAULT_SECRET_DOMAIN } from '../defaults.js';
import { isIP } from 'node:net';
import type { PemPair } from '../crypto/certificates.js';
import { issueServerCertificate } from '../crypto/certificates-lazy.js';
import { machineJwksCertificate, type CertificateNames, type JwksCertificate } from './certificate-cache.js';
import { generateClientSecret } from '../crypto/client-secret.js';
import { sha256Base64Url } from '../crypto/encoding.js';
import { generateHmacSecret } from '../crypto/hmac.js';
import { generateSigningKey } from '../crypto/signing-keys.js';
import { machineRsaSigningKey } from './key-cache.js';
import { seededFaker, type Faker } from '../data/fake.js';
import type { CredentialLifespan, ReferenceApp, ReferenceConfig } from '../reference/types.js';
import { pickFreePort } from './ports.js';
import type { Tenant, TenantCredential, TenantHmacListener, TenantJwtListener } from './types.js';
import { WEBHOOK_BODY_MAX_BYTES } from '../spec-numbers.js';

export interface GenerateTenantOptions {
  seed: string;
  /** Host the reference listens on. */
  host: string;
  /** Port it listens on (needed unless publicBaseUrl is given). */
  port?: number;
  /** Base URL clients use when it is not http://host:port (NAT, container, proxy). */
  publicBaseUrl?: string;
  /** Host in the JWKS URL, as the reference reaches the harness (default 127.0.0.1). */
  jwksHost?: string;
  /** Port of the JWKS URL; default: a free port on 127.0.0.1. */
  jwksPort?: number;
  hooks?: boolean;
  webhookBodyBytes?: number;
  tokenTtlSeconds?: number;
  /** Unix seconds, for the credentials' creation dates; default now. */
  now?: number;
  /** Service-domain segment of the Client Secrets; default {@link DEFAULT_SECRET_DOMAIN}. */
  secretDomain?: string;
  /** Local CA that signs the JWKS certificate (and, with `serve --tls`, the API's); default a fresh one. */
  ca?: PemPair;
  /** The base URL is https (the server speaks TLS with a certificate from `ca`). */
  tls?: boolean;
}

/**
 * The service-domain segment the official TypeScript and Python SDKs insist on (they throw "wrong domain"
 * before sending anything otherwise); the Go SDK ignores the segment. It names the service that issued
 * the secret, not the tenant, so it is independent of the tenant's host. The suites assume no domain.
 */
export { DEFAULT_SECRET_DOMAIN };

/** TEST-NET-3 and the IPv6 documentation prefix: no client ever connects from there. */
export const UNREACHABLE_CIDRS = ['203.0.113.0/24', '2001:db8::/32'];

const ENTITLEMENT_COUNTS = { owners: 5, large: 237, exact: 50, empty: 0 } as const;

/**
 * Apps beyond the four named ones, so the app list and search hold more than 100 apps (120 in all): every
 * page-size rule (below 10, above 100, the default 25) is observable on them (ruling 34). They have no
 * owners and no entitlements; the entitlement search spans the named apps' 292.
 */
const MORE_APPS = 116;

/** Users of the tenant (the owners among them), so the user search spans more than 100 (ruling 34). */
const USERS = 150;

export async function generateTenant(options: GenerateTenantOptions): Promise<Tenant> {
  // The slow key work starts first and goes on (libuv's thread pool, WebCrypto) while the seeded names
  // are drawn below; the faker's calls keep their order, so one seed still gives one tenant.
  const rsaKey = deferred(() => machineRsaSigningKey(RSA_KID_PLACEHOLDER));
  const jwksHost = options.jwksHost ?? '127.0.0.1';
  const certificateNames = namesOf([jwksHost, '127.0.0.1', 'localhost']);
  // The machine's kept pair (certificate-cache.ts), or a leaf from the CA given (serve --tls, a kept state).
  const tlsReady = deferred(() => (options.ca ? issuedBy(options.ca, certificateNames) : machineJwksCertificate(certificateNames)));
  const faker = seededFaker(options.seed, 'tenant');
  const baseUrl = tenantBaseUrl(options);
  const tenantDomain = domainOf(baseUrl);
  const secretDomain = options.secretDomain ?? DEFAULT_SECRET_DOMAIN;
  const now = options.now ?? Date.now() / 1000;
  const ids = new Set<string>();
  const uniqueId = (make: () => string): string => {
    for (;;) {
      const id = make();
      if (!ids.has(id)) {
        ids.add(id);
        return id;
      }
    }
  };

  const credential = async (useCase: string, lifespan: CredentialLifespan, createdAt: number, allowedCidrs: string[]): Promise<TenantCredential> => {
    const randomId = uniqueId(() => `${slug(faker.word.adjective())}-${slug(faker.animal.type())}-${faker.string.numeric(4)}`);
    const clientId = `${randomId}@${tenantDomain}/${useCase}`;
    const { secret, publicJwk } = await generateClientSecret(secretDomain);
    return {
      clientId,
      clientSecret: secret,
      config: { name: `${useCase} key`, clientId, secretSha256: sha256Base64Url(secret), publicJwk, lifespan, createdAt, allowedCidrs },
    };
  };
  const primary = await credential('conformance', 'never expires', now, []);
  const ipRestricted = await credential('conformance-ip', '90 days', now, UNREACHABLE_CIDRS);
  // Created 45 days ago with a 30-day lifespan: expired 15 days ago.
  const expired = await credential('conformance-expired', '30 days', now - 45 * 86_400, []);

  const appId = (): string => uniqueId(() => faker.string.alphanumeric({ length: 12, casing: 'mixed' }));
  const app = (count: number, ownerIds: string[] | null): ReferenceApp => ({
    appId: appId(),
    displayName: faker.company.name(),
    ownerIds,
    entitlements: entitlements(faker, count, () => uniqueId(() => faker.string.alphanumeric({ length: 14, casing: 'mixed' }))),
  });
  const ownerIds = Array.from({ length: 3 }, () => uniqueId(() => faker.string.alphanumeric({ length: 12, casing: 'mixed' })));
  const apps = {
    owners: app(ENTITLEMENT_COUNTS.owners, ownerIds),
    missingAppId: appId(),
    large: app(ENTITLEMENT_COUNTS.large, [ownerIds[0] as string]),
    exact: app(ENTITLEMENT_COUNTS.exact, []),
    // An app without owners answers "userIds": null.
    empty: app(ENTITLEMENT_COUNTS.empty, null),
    more: Array.from({ length: MORE_APPS }, () => app(0, [])),
  };

  const jwksPort = options.jwksPort ?? (await pickFreePort());
  // A port that was free a moment ago on loopback: connecting to it is refused.
  const closedPort = await pickFreePort();
  const { ca, leaf } = await tlsReady();
  const jwks = { url: `https://${hostForUrl(jwksHost)}:${jwksPort}/jwks.json`, host: jwksHost, port: jwksPort, certPem: leaf.certPem, keyPem: leaf.keyPem, caPem: ca.certPem };

  const listenerId = (): string => uniqueId(() => `wh_${faker.string.alphanumeric({ length: 10, casing: 'upper' })}`);
  const hmacListener = (allowedCidrs: string[], published = true, enabled = true): TenantHmacListener => {
    const id = listenerId();
    const secret = generateHmacSecret();
    return { listenerId: id, secret, config: { listenerId: id, method: 'HMAC', hmacSecret: secret, allowedCidrs, published, enabled } };
  };
  const jwtListener = async (url: string, algs: Array<'RS256' | 'ES256' | 'EdDSA'>): Promise<TenantJwtListener> => {
    const id = listenerId();
    const signingKeys = [];
    for (const alg of algs) {
      const kid = `${alg.toLowerCase()}-${faker.string.alphanumeric(8)}`;
      signingKeys.push(alg === 'RS256' ? { ...(await rsaKey()), kid } : await generateSigningKey(alg, kid));
    }
    return { listenerId: id, signingKeys, config: { listenerId: id, method: 'JWT', jwksUrl: url, allowedCidrs: [], published: true, enabled: true } };
  };
  const listeners = {
    hmac: hmacListener([]),
    hmacSecond: hmacListener([]),
    jwt: await jwtListener(jwks.url, ['RS256', 'ES256', 'EdDSA']),
    jwtUnreachableJwks: await jwtListener(`https://127.0.0.1:${closedPort}/jwks.json`, ['EdDSA']),
    ipRestricted: hmacListener(UNREACHABLE_CIDRS),
    // Published, trigger disabled: the automation must not run.
    inactive: hmacListener([], true, false),
  };

  const hooks = { enabled: options.hooks ?? false, token: generateHmacSecret() };
  const webhookBodyBytes = options.webhookBodyBytes ?? WEBHOOK_BODY_MAX_BYTES;
  const reference: ReferenceConfig = {
    baseUrl,
    tenantDomain,
    credentials: [primary.config, ipRestricted.config, expired.config],
    apps: [apps.owners, apps.large, apps.exact, apps.empty, ...apps.more],
    listeners: Object.values(listeners).map((listener) => listener.config),
    users: Array.from({ length: USERS }, (_, i) => {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      const id = i < ownerIds.length ? (ownerIds[i] as string) : uniqueId(() => faker.string.alphanumeric({ length: 12, casing: 'mixed' }));
      return { id, displayName: `${first} ${last}`, email: `${slug(first)}.${slug(last)}.${i}@example.com` };
    }),
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    webhookBodyBytes,
    hooks,
    jwksCaPem: ca.certPem,
  };
  return {
    seed: options.seed,
    baseUrl,
    tenantDomain,
    secretDomain,
    ...(options.tls ? { apiTls: { caPem: ca.certPem } } : {}),
    credentials: { primary, ipRestricted, expired },
    apps,
    listeners,
    jwks,
    hooks,
    webhookBodyBytes,
    reference,
  };
}

/** The cached key's kid until the listener names it (the kid is drawn from the seeded faker, in order). */
const RSA_KID_PLACEHOLDER = 'rs256';

/**
 * Starts `make` now and returns how to await it; a rejection is kept for that await (not unhandled while
 * other work runs first).
 */
function namesOf(all: readonly string[]): CertificateNames {
  const names = [...new Set(all)];
  return { ipAddresses: names.filter((n) => isIP(n) !== 0), dnsNames: names.filter((n) => isIP(n) === 0) };
}

/** A leaf from a CA the caller holds (the certificate library loads for it only then). */
async function issuedBy(ca: PemPair, names: CertificateNames): Promise<JwksCertificate> {
  return { ca, leaf: await issueServerCertificate(ca, names) };
}

function deferred<T>(make: () => Promise<T>): () => Promise<T> {
  const started = make();
  started.catch(() => undefined);
  return () => started;
}

function entitlements(faker: Faker, count: number, id: () => string): ReferenceApp['entitlements'] {
  return Array.from({ length: count }, () => ({
    id: id(),
    displayName: `${faker.commerce.department()} ${faker.word.noun()} ${faker.helpers.arrayElement(['reader', 'writer', 'admin', 'auditor', 'operator'])}`,
    description: `Lets its holder ${faker.word.verb()} the ${faker.commerce.productName()}`,
  }));
}

export function tenantBaseUrl(options: { host: string; port?: number; publicBaseUrl?: string; tls?: boolean }): string {
  if (options.publicBaseUrl !== undefined) return new URL(options.publicBaseUrl).origin;
  if (options.port === undefined || options.port === 0) throw new RangeError('generateTenant needs the bound port or a publicBaseUrl');
  // A wildcard bind is reachable on loopback; the profile names that.
  const host = options.host === '0.0.0.0' ? '127.0.0.1' : options.host === '::' ? '::1' : options.host;
  return `${options.tls ? 'https' : 'http'}://${hostForUrl(host)}:${options.port}`;
}

/** The hostname of a base URL as it may appear in a Client ID (no port, no IPv6 brackets: "localhost" then). */
function domainOf(baseUrl: string): string {
  const hostname = new URL(baseUrl).hostname;
  return hostname.startsWith('[') || hostname.includes(':') ? 'localhost' : hostname;
}

function hostForUrl(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'key';
}
