/**
 * startSandbox: a generated tenant served by the reference on 127.0.0.1 (or the given host), with its
 * target profile written to disk. Used by `serve`, by `run` without a profile, by faults (customize) and by
 * the container image.
 *
 * The server binds first (port 0 means "any"), because the tenant's base URL, Client IDs and listener URLs
 * need the real port; the handler is installed right after, before the sandbox is handed out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isIP } from 'node:net';
import type { PemPair } from '../crypto/certificates.js';
import { createLocalCa, issueServerCertificate } from '../crypto/certificates-lazy.js';
import { randomSeed } from '../data/seed.js';
import { HarnessError } from '../errors.js';
import type { ProfileDocument } from '../profile/document.js';
import { closeServer, createReferenceServer } from '../reference/node-adapter.js';
import { OPENAPI_PATH } from '../reference/openapi-document.js';
import { createReference, defaultDeps } from '../reference/reference.js';
import type { Reference, ReferenceHandler, ReferenceResponse } from '../reference/types.js';
import { generateTenant } from './generate.js';
import { writeSandboxProfile } from './profile.js';
import type { SandboxCustomize, SandboxState, SandboxStateRecord, Tenant } from './types.js';

export interface SandboxOptions {
  seed?: string;
  host?: string;
  port?: number;
  hooks?: boolean;
  publicBaseUrl?: string;
  jwksHost?: string;
  jwksPort?: number;
  /** Where the profile goes: a file path. Wins over profileDir. */
  profilePath?: string;
  /** A directory for `sandbox.target.json`; default: a fresh temporary directory, removed on close. */
  profileDir?: string;
  webhookBodyBytes?: number;
  tokenTtlSeconds?: number;
  /** Service-domain segment of the Client Secrets; default the one the official SDKs check. */
  secretDomain?: string;
  /** How long the reference waits for a JWKS document (`serve --timeout`); default the reference's own. */
  jwksTimeoutMs?: number;
  /** Serve the API over HTTPS with a certificate from a fresh local CA (written next to the profile). */
  tls?: boolean;
  customize?: SandboxCustomize;
  /** Where the reference logs unexpected errors; default stderr. */
  logger?: (line: string) => void;
  /** Told once the server listens, before the tenant's keys are made (the CLI's run scope names the phase). */
  onKeys?: () => Promise<void> | void;
  /**
   * A state directory (`serve --state-dir`): its kept tenant is served again (same URLs, credentials,
   * listeners and keys, so a profile written earlier stays valid), or the generated one is kept in it; its
   * ports replace the reference's in-memory event store, runner and clock. The caller closes it.
   */
  state?: SandboxState;
}

export interface Sandbox {
  baseUrl: string;
  /** Where the reference serves its OpenAPI description (also written next to the profile). */
  openapiUrl: string;
  profilePath: string;
  profileJson: ProfileDocument;
  tenant: Tenant;
  seed: string;
  /** The reference behind the handler (its deps: clock, stores, runner). */
  reference: Reference;
  /** The state directory in use (`serve --state-dir`), if any. */
  statePath?: string;
  close(): Promise<void>;
}

const NOT_READY: ReferenceResponse = {
  status: 503,
  headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' },
  body: '{"error":"temporarily_unavailable","error_description":"the sandbox is starting"}',
};

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const kept = options.state?.kept;
  if (kept !== undefined) checkKeptSettings(kept, options);
  const seed = options.seed ?? kept?.tenant.seed ?? randomSeed();
  const host = options.host ?? '127.0.0.1';
  let handler: ReferenceHandler = async () => NOT_READY;
  let limitFor: (method: string, url: string) => number = () => 0;
  // The certificate names no port, so it is issued before the bind, for every name a client may use.
  const ca = kept !== undefined ? kept.ca : options.tls ? await createLocalCa(`access-conformance sandbox CA (${seed})`) : undefined;
  // A kept tenant's URLs name the port it was served on: a restart binds that one again.
  const port = kept !== undefined ? kept.port : (options.port ?? 0);
  const server = createReferenceServer({
    handler: (request) => handler(request),
    limitFor: (method, url) => limitFor(method, url),
    logger: options.logger,
    ...(ca ? { tls: await apiCertificate(ca, host, options) } : {}),
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new HarnessError('USAGE', `cannot listen on ${host}:${port}: ${error.code ?? error.message}`, {
          field: '--port',
          hint:
            kept !== undefined
              ? `The tenant kept in ${options.state?.dir} is served on port ${port} (its profile names it): free that port, or use another --state-dir.`
              : 'Choose another --port (0 picks a free one) or --host.',
          cause: error,
        }),
      ),
    );
    server.listen(port, host, () => resolveListen());
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : 0;

  let tempDir: string | undefined;
  try {
    await options.onKeys?.();
    const generated = kept?.tenant ?? await generateTenant({
      seed,
      host,
      port: boundPort,
      publicBaseUrl: options.publicBaseUrl,
      jwksHost: options.jwksHost,
      jwksPort: options.jwksPort,
      hooks: options.hooks ?? false,
      webhookBodyBytes: options.webhookBodyBytes,
      tokenTtlSeconds: options.tokenTtlSeconds,
      secretDomain: options.secretDomain,
      ...(ca ? { ca, tls: true } : {}),
    });
    if (options.state !== undefined && kept === undefined) {
      await options.state.keep({ tenant: generated, ...(ca ? { ca } : {}), port: boundPort, settings: keptSettings(options, seed) });
    }
    const customized = (await options.customize?.tenant?.(generated)) ?? generated;
    const tenant = options.jwksTimeoutMs === undefined ? customized : { ...customized, reference: { ...customized.reference, jwksTimeoutMs: options.jwksTimeoutMs } };
    const base = { ...defaultDeps(tenant.reference), ...options.state?.deps };
    if (options.logger) base.logger = options.logger;
    const replaced = options.customize?.deps?.(base, tenant) ?? {};
    const reference = createReference(tenant.reference, { ...base, ...replaced });
    const wrapped = options.customize?.wrapHandler?.(reference.handle, tenant) ?? reference.handle;

    let profilePath: string;
    if (options.profilePath !== undefined) profilePath = resolve(options.profilePath);
    else {
      const dir = options.profileDir ?? (tempDir = await mkdtemp(join(tmpdir(), 'access-conformance-sandbox-')));
      profilePath = resolve(dir, 'sandbox.target.json');
    }
    const profileJson = await writeSandboxProfile(tenant, profilePath);

    handler = wrapped;
    limitFor = options.customize?.limitFor?.(reference.limitFor, tenant) ?? reference.limitFor;
    let closed: Promise<void> | undefined;
    return {
      baseUrl: tenant.baseUrl,
      openapiUrl: `${tenant.baseUrl}${OPENAPI_PATH}`,
      profilePath,
      profileJson,
      tenant,
      seed,
      reference,
      ...(options.state === undefined ? {} : { statePath: options.state.dir }),
      close() {
        closed ??= (async () => {
          reference.close();
          await closeServer(server);
          if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
        })();
        return closed;
      },
    };
  } catch (error) {
    await closeServer(server);
    if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
}

/** A leaf for the API: loopback names, the bound host and the public URL's host. */
function apiCertificate(ca: PemPair, host: string, options: SandboxOptions): Promise<PemPair> {
  const names = new Set(['127.0.0.1', '::1', 'localhost']);
  if (host !== '0.0.0.0' && host !== '::') names.add(host);
  if (options.publicBaseUrl !== undefined) names.add(new URL(options.publicBaseUrl).hostname.replace(/^\[|\]$/g, ''));
  if (options.jwksHost !== undefined) names.add(options.jwksHost);
  const all = [...names];
  return issueServerCertificate(ca, { ipAddresses: all.filter((n) => isIP(n) !== 0), dnsNames: all.filter((n) => isIP(n) === 0) });
}

/** The options that shaped a kept tenant, by their `serve` flag names; a restart must repeat them. */
function keptSettings(options: SandboxOptions, seed: string): SandboxStateRecord['settings'] {
  return {
    '--seed': seed,
    '--host': options.host ?? '127.0.0.1',
    '--public-url': options.publicBaseUrl ?? null,
    '--jwks-host': options.jwksHost ?? null,
    '--hooks': options.hooks ?? false,
    '--secret-domain': options.secretDomain ?? null,
    '--tls': options.tls ?? false,
    jwksPort: options.jwksPort ?? null,
    webhookBodyBytes: options.webhookBodyBytes ?? null,
    tokenTtlSeconds: options.tokenTtlSeconds ?? null,
  };
}

/**
 * A restart asks for the kept tenant as it was made: a setting given now that differs (another seed, hooks
 * on where they were off, another port) would serve a tenant the profile does not describe, so it is refused.
 */
function checkKeptSettings(kept: SandboxStateRecord, options: SandboxOptions): void {
  const now = keptSettings(options, options.seed ?? String(kept.settings['--seed']));
  const differ = Object.entries(now)
    .filter(([name, value]) => kept.settings[name] !== undefined && kept.settings[name] !== value)
    .map(([name, value]) => `${name} ${JSON.stringify(kept.settings[name])} then, ${JSON.stringify(value)} now`);
  if (options.port !== undefined && options.port !== 0 && options.port !== kept.port) differ.push(`--port ${kept.port} then, ${options.port} now`);
  if (differ.length > 0) {
    throw new HarnessError('USAGE', `the state directory ${options.state?.dir} keeps a tenant made with other settings (${differ.join('; ')})`, {
      field: '--state-dir',
      hint: 'Start with the settings it was made with (the port may be left out), or choose another --state-dir for a new tenant.',
    });
  }
}
