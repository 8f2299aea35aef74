/**
 * The tenant as a target profile (schemas/target-profile.schema.json), plus the PEM files it points at.
 * Everything the profile holds is a secret for this sandbox: the files are written owner-only (0600).
 * File references are relative to the profile's directory (how the profile loader resolves them), so a
 * profile written inside a container stays valid on the host through a mounted directory.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HarnessError } from '../errors.js';
import type { ProfileDocument } from '../profile/document.js';
import { formatProfileErrors, validateProfileDocument } from '../profile/schema.js';
import { OPENAPI_PATH, referenceOpenApiDocument } from '../reference/openapi-document.js';
import type { Tenant, TenantHmacListener, TenantJwtListener } from './types.js';

export interface SandboxProfileFiles {
  /** Names relative to the profile's directory. */
  jwksCertFile: string;
  jwksKeyFile: string;
  /** The local CA a client trusts for the API (written only when the API speaks HTTPS). */
  caFile: string;
  /** The reference's OpenAPI 3.1 description (the same document it serves at /openapi.json). */
  openapiFile: string;
}

export function sandboxProfileFiles(profilePath: string): SandboxProfileFiles {
  const stem = basename(profilePath).replace(/\.json$/i, '').replace(/\.target$/i, '');
  return { jwksCertFile: `${stem}.jwks-cert.pem`, jwksKeyFile: `${stem}.jwks-key.pem`, caFile: `${stem}.ca.pem`, openapiFile: `${stem}.openapi.json` };
}

export function buildProfileDocument(tenant: Tenant, files: SandboxProfileFiles): ProfileDocument {
  const hmac = (listener: TenantHmacListener) => ({ listenerId: listener.listenerId, secret: listener.secret });
  const jwt = (listener: TenantJwtListener) => ({
    listenerId: listener.listenerId,
    signingKeys: listener.signingKeys.map((key) => ({ ...key })),
  });
  const { credentials: c, apps, listeners } = tenant;
  const document: ProfileDocument = {
    version: 1,
    name: `access-conformance reference sandbox (seed ${tenant.seed})`,
    baseUrl: tenant.baseUrl,
    tenantDomain: tenant.tenantDomain,
    ...(tenant.apiTls ? { tls: { caFile: files.caFile } } : {}),
    credentials: {
      primary: { clientId: c.primary.clientId, clientSecret: c.primary.clientSecret },
      // Its CIDRs exclude 127.0.0.1; listing them lets checks pretend, by forwarding headers, to be inside.
      ipRestricted: { clientId: c.ipRestricted.clientId, clientSecret: c.ipRestricted.clientSecret, allowedCidrs: [...c.ipRestricted.config.allowedCidrs] },
      expired: { clientId: c.expired.clientId, clientSecret: c.expired.clientSecret },
    },
    apps: {
      owners: { appId: apps.owners.appId, ownerIds: apps.owners.ownerIds === null ? null : [...apps.owners.ownerIds] },
      missingAppId: apps.missingAppId,
      entitlements: {
        large: { appId: apps.large.appId, count: apps.large.entitlements.length },
        exact: { appId: apps.exact.appId, count: apps.exact.entitlements.length },
        empty: { appId: apps.empty.appId, count: apps.empty.entitlements.length },
      },
    },
    webhooks: {
      hmac: hmac(listeners.hmac),
      hmacSecond: hmac(listeners.hmacSecond),
      jwt: {
        ...jwt(listeners.jwt),
        serveJwks: { url: tenant.jwks.url, tlsCertFile: files.jwksCertFile, tlsKeyFile: files.jwksKeyFile },
      },
      // Its JWKS URL points at a closed port: nobody serves it, by design.
      jwtUnreachableJwks: jwt(listeners.jwtUnreachableJwks),
      ipRestricted: { ...hmac(listeners.ipRestricted), allowedCidrs: [...listeners.ipRestricted.config.allowedCidrs] },
      inactive: hmac(listeners.inactive),
    },
    limits: { webhookBodyBytes: tenant.webhookBodyBytes },
    // The description the reference serves (ruling 34): read from the target, so a fault that changes what it
    // serves changes what the run reads. The same document is written next to the profile for list --openapi.
    openapi: `${tenant.baseUrl}${OPENAPI_PATH}`,
  };
  if (tenant.hooks.enabled) document.hooks = { baseUrl: `${tenant.baseUrl}/__hooks/v1`, token: tenant.hooks.token };
  return document;
}

/** Validates and writes the profile and its PEM files; returns the document. */
export async function writeSandboxProfile(tenant: Tenant, profilePath: string): Promise<ProfileDocument> {
  const files = sandboxProfileFiles(profilePath);
  const document = buildProfileDocument(tenant, files);
  const verdict = validateProfileDocument(document);
  if (!verdict.ok) {
    // A bug in the generator, not in the user's setup.
    throw new HarnessError('INTERNAL', `the generated sandbox profile does not match the schema:\n${formatProfileErrors(verdict.errors)}`);
  }
  const dir = dirname(profilePath);
  try {
    await mkdir(dir, { recursive: true });
    const written: Array<[string, string]> = [
      [join(dir, files.jwksCertFile), tenant.jwks.certPem],
      [join(dir, files.jwksKeyFile), tenant.jwks.keyPem],
      ...(tenant.apiTls ? ([[join(dir, files.caFile), tenant.apiTls.caPem]] as Array<[string, string]>) : []),
      [join(dir, files.openapiFile), `${JSON.stringify(referenceOpenApiDocument(tenant.baseUrl), null, 2)}\n`],
      [profilePath, `${JSON.stringify(document, null, 2)}\n`],
    ];
    for (const [path, text] of written) {
      await writeFile(path, text, { mode: 0o600 });
      // `mode` applies only when the file is created; an older file keeps its bits unless told.
      await chmod(path, 0o600);
    }
  } catch (error) {
    throw new HarnessError('USAGE', `cannot write the sandbox profile to ${profilePath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      field: '--profile-out',
      hint: 'Choose a writable path with --profile-out.',
      cause: error,
    });
  }
  return document;
}
