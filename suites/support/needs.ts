/**
 * Why a check cannot run against this target: the first need that the profile (or the probed hooks) does
 * not satisfy, as the sentence the report shows. `undefined` when everything is there.
 */
import type { RunContext } from '../../src/engine/check-meta.js';
import type { JwtAlg } from '../../src/profile/types.js';
import type { Need } from '../../src/requirements/types.js';

function hasAlg(run: RunContext, alg: JwtAlg): boolean {
  return run.profile.webhooks.jwt?.signingKeys.some((key) => key.alg === alg) ?? false;
}

function satisfied(run: RunContext, need: Need): boolean {
  const { profile } = run;
  switch (need) {
    case 'credentials.ipRestricted':
      return profile.credentials.ipRestricted !== undefined;
    case 'credentials.ipRestricted.allowedCidrs':
      return (profile.credentials.ipRestricted?.allowedCidrs?.length ?? 0) > 0;
    case 'webhooks.ipRestricted.allowedCidrs':
      return (profile.webhooks.ipRestricted?.allowedCidrs?.length ?? 0) > 0;
    case 'credentials.expired':
      return profile.credentials.expired !== undefined;
    case 'apps.owners':
      return profile.apps.owners !== undefined;
    case 'apps.owners.ownerIds':
      return profile.apps.owners !== undefined && profile.apps.owners.ownerIds !== undefined;
    case 'apps.missingAppId':
      return profile.apps.missingAppId !== undefined;
    case 'apps.entitlements.large':
      return profile.apps.entitlements.large !== undefined;
    case 'apps.entitlements.exact':
      return profile.apps.entitlements.exact !== undefined;
    case 'apps.entitlements.empty':
      return profile.apps.entitlements.empty !== undefined;
    case 'webhooks.hmac':
    case 'webhooks.hmacSecond':
    case 'webhooks.jwt':
    case 'webhooks.jwtUnreachableJwks':
    case 'webhooks.ipRestricted':
    case 'webhooks.inactive':
      return profile.webhooks[need.slice('webhooks.'.length) as keyof RunContext['profile']['webhooks']] !== undefined;
    case 'webhooks.jwt.RS256':
      return hasAlg(run, 'RS256');
    case 'webhooks.jwt.ES256':
      return hasAlg(run, 'ES256');
    case 'webhooks.jwt.EdDSA':
      return hasAlg(run, 'EdDSA');
    case 'webhooks.jwt.serveJwks':
      return run.jwksControl !== undefined;
    case 'hooks.clock':
      return run.capabilities.clock;
    case 'hooks.runs':
      return run.capabilities.runs;
    case 'openapi':
      return run.operations?.description !== undefined;
  }
}

function reason(need: Need): string {
  if (need === 'hooks.clock') return 'target offers no clock hook';
  if (need === 'hooks.runs') return 'target offers no runs hook';
  if (need === 'openapi') return 'the run has no OpenAPI description of the service (give --openapi FILE|URL, or "openapi" in the profile)';
  const alg = /^webhooks\.jwt\.(RS256|ES256|EdDSA)$/.exec(need);
  if (alg) return `profile has no ${alg[1]} signing key in webhooks.jwt`;
  if (need === 'webhooks.jwt.serveJwks') return 'the harness serves no JWKS for webhooks.jwt (no serveJwks in the profile), so it cannot rotate a key in';
  if (need === 'apps.owners.ownerIds') return 'profile lists no apps.owners.ownerIds';
  if (need.endsWith('.allowedCidrs')) {
    return `profile lists no ${need} (the blocks the restriction allows), so no address inside them can be claimed`;
  }
  return `profile has no ${need}`;
}

export function missingNeed(run: RunContext, needs: readonly Need[]): string | undefined {
  const missing = needs.find((need) => !satisfied(run, need));
  return missing === undefined ? undefined : reason(missing);
}
