/**
 * §2.1 / §5.2 API credentials (rulings 1–2): the formats of the Client IDs and Client Secrets the target
 * displayed (as the profile holds them) and the addresses derived from a Client ID. No request is made:
 * ruling 2 checks the derivation as a pure function, and the run itself always uses the profile's baseUrl.
 * Failure messages name the credential and the structural problem, never any part of a secret's key.
 */
import type { ResolvedCredential } from '../src/profile/types.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import {
  base64UrlBytes,
  decodeJwk,
  deriveAddresses,
  ed25519PublicX,
  hostnameProblem,
  parseClientId,
  profileCredentials,
  splitSecret,
  urlProblem,
} from './support/credential-format.js';
import { fail } from './support/expect.js';
import type { RequirementId } from '../src/requirements/catalogue.js';

/**
 * Runs a per-credential inspection over every credential of the profile; fails once with all problems.
 * `inspect` returns a problem sentence or undefined.
 */
function everyCredential(ctx: CheckContext, expected: string, inspect: (credential: ResolvedCredential) => string | undefined): void {
  const problems = profileCredentials(ctx.profile)
    .map(({ key, credential }) => {
      const problem = inspect(credential);
      return problem === undefined ? undefined : `credentials.${key}: ${problem}`;
    })
    .filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) fail(problems.join('; '), expected, problems.join('; '));
}

/** The secret's JWK object, or a problem sentence when an earlier format rule already fails. */
function secretJwk(credential: ResolvedCredential): Record<string, unknown> | string {
  const parts = splitSecret(credential.clientSecret);
  if ('error' in parts) return `secret format: ${parts.error}`;
  const decoded = decodeJwk(parts.jwkText);
  return decoded.ok ? decoded.jwk : `JWK segment ${decoded.error}`;
}

group.concurrent('§2.1 API credential', () => {
  check('CRED-01', async (ctx) => {
    everyCredential(ctx, '<random-id>@<hostname>/<use-case>', (credential) => {
      const parts = parseClientId(credential.clientId);
      return 'error' in parts ? `Client ID "${credential.clientId}": ${parts.error}` : undefined;
    });
  });

  check('CRED-02', async (ctx) => {
    everyCredential(ctx, 'a DNS host name between `@` and the first `/`', (credential) => {
      const parts = parseClientId(credential.clientId);
      if ('error' in parts) return `Client ID "${credential.clientId}": ${parts.error}`;
      const problem = hostnameProblem(parts.hostname);
      return problem === undefined ? undefined : `hostname "${parts.hostname}" ${problem}`;
    });
  });

  /** An address every credential's Client ID implies: `https://<hostname><path>`. */
  const derivedAddress = (id: RequirementId, path: string, name: string, pick: (derived: { tokenEndpoint: string; apiRoot: string }) => string): void => {
    check(id, async (ctx) => {
      everyCredential(ctx, `https://<hostname>${path}`, (credential) => {
        const derived = deriveAddresses(credential.clientId);
        if ('error' in derived) return `Client ID "${credential.clientId}": ${derived.error}`;
        const address = pick(derived);
        const problem = urlProblem(address, derived.hostname, path);
        return problem === undefined ? undefined : `${name} "${address}" ${problem}`;
      });
    });
  };
  derivedAddress('CRED-03', '/auth/v1/token', 'token endpoint', (derived) => derived.tokenEndpoint);
  derivedAddress('CRED-04', '/api/v1', 'API root', (derived) => derived.apiRoot);

  check('CRED-05', async (ctx) => {
    everyCredential(ctx, 'secret-token:<service-domain>:v1:<base64url JWK>', (credential) => {
      const parts = splitSecret(credential.clientSecret);
      if ('error' in parts) return `Client Secret has ${parts.error}`;
      return parts.prefix === 'secret-token' ? undefined : 'Client Secret does not start with `secret-token:`';
    });
  });

  check('CRED-06', async (ctx) => {
    everyCredential(ctx, 'a domain name as the second segment', (credential) => {
      const parts = splitSecret(credential.clientSecret);
      if ('error' in parts) return `Client Secret has ${parts.error}`;
      if (parts.serviceDomain === '') return 'service-domain segment is empty';
      const problem = hostnameProblem(parts.serviceDomain);
      return problem === undefined ? undefined : `service-domain segment "${parts.serviceDomain}" ${problem}`;
    });
  });

  check('CRED-07', async (ctx) => {
    everyCredential(ctx, '`v1` as the third segment', (credential) => {
      const parts = splitSecret(credential.clientSecret);
      if ('error' in parts) return `Client Secret has ${parts.error}`;
      // The version segment is not key material; showing it helps.
      return parts.version === 'v1' ? undefined : `version segment is "${parts.version.slice(0, 16)}"`;
    });
  });

  check('CRED-08', async (ctx) => {
    everyCredential(ctx, 'base64url without padding of a JSON object', (credential) => {
      const jwk = secretJwk(credential);
      return typeof jwk === 'string' ? jwk : undefined;
    });
  });

  check('CRED-09', async (ctx) => {
    everyCredential(ctx, '{"kty":"OKP","crv":"Ed25519","d":<32 bytes>,"x":<32 bytes>}', (credential) => {
      const jwk = secretJwk(credential);
      if (typeof jwk === 'string') return jwk;
      const problems: string[] = [];
      if (jwk.kty !== 'OKP') problems.push(`kty is ${JSON.stringify(jwk.kty) ?? 'missing'}`);
      if (jwk.crv !== 'Ed25519') problems.push(`crv is ${JSON.stringify(jwk.crv) ?? 'missing'}`);
      for (const member of ['d', 'x'] as const) {
        const bytes = base64UrlBytes(jwk[member]);
        if (bytes === undefined) problems.push(`${member} is ${jwk[member] === undefined ? 'missing' : 'not base64url text'}`);
        else if (bytes !== 32) problems.push(`${member} holds ${bytes} bytes`);
      }
      return problems.length === 0 ? undefined : `JWK ${problems.join(', ')}`;
    });
  });

  check('CRED-10', async (ctx) => {
    everyCredential(ctx, 'x = the Ed25519 public key of d', (credential) => {
      const jwk = secretJwk(credential);
      if (typeof jwk === 'string') return jwk;
      if (base64UrlBytes(jwk.d) !== 32 || base64UrlBytes(jwk.x) !== 32) return 'JWK has no 32-byte d and x to compare (see CRED-09)';
      let derived: string;
      try {
        derived = ed25519PublicX(jwk.d as string);
      } catch {
        return 'JWK d is not a usable Ed25519 private key';
      }
      return derived === jwk.x ? undefined : 'JWK x is not the public key of d';
    });
  });

  check('CRED-11', async (ctx) => {
    for (const { key, credential } of profileCredentials(ctx.profile)) {
      const parts = splitSecret(credential.clientSecret);
      if ('error' in parts) {
        ctx.note(`credentials.${key}: not linted, the secret has ${parts.error}`);
        continue;
      }
      const urlOnly = (parts.jwkText.match(/[-_]/g) ?? []).length;
      ctx.note(
        urlOnly === 0
          ? `credentials.${key}: JWK text uses only characters shared by base64 and base64url; plain base64 decoders read it`
          : `credentials.${key}: JWK text holds ${urlOnly} "-"/"_" character(s); SDKs that decode it with plain base64 would fail`,
      );
    }
  });

  check('CRED-12', async (ctx) => {
    const baseHost = new URL(ctx.profile.baseUrl).hostname;
    for (const { key, credential } of profileCredentials(ctx.profile)) {
      const derived = deriveAddresses(credential.clientId);
      if ('error' in derived) {
        ctx.note(`credentials.${key}: no hostname derivable (${derived.error})`);
        continue;
      }
      ctx.note(
        derived.hostname.toLowerCase() === baseHost
          ? `credentials.${key}: derived hostname equals the baseUrl host ${baseHost}`
          : `credentials.${key}: derived hostname ${derived.hostname} differs from the baseUrl host ${baseHost}; the run calls baseUrl`,
      );
    }
  });
});
