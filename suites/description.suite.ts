/**
 * §9, §5.1 and ruling 34: the service's own OpenAPI description, as the run read it (`--openapi`, the
 * profile's `"openapi"`; loaded once by the engine, its facts in `RunContext.operations.description`). No
 * request goes to the API here: the description is the artefact under test. Without one, skipped.
 */
import type { DescriptionFacts, SecuritySchemeFact } from '../src/openapi/types.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectThat, fail } from './support/expect.js';

/** The token URL §5.1 names. */
const TOKEN_PATH = '/auth/v1/token';
/** The owner-IDs operation as ruling 34 names it (service.md §4.2 writes the same name under a `svc.` prefix). */
const OWNER_IDS_OPERATION = 'c1.api.app.v1.AppOwners.ListOwnerIDs';
const OWNER_IDS_OPERATION_SPEC = 'svc.api.app.v1.AppOwners.ListOwnerIDs';
const OWNER_IDS_TAG = 'App Owner';

function facts(ctx: CheckContext): DescriptionFacts {
  const description = ctx.run.operations?.description;
  // needs: ['openapi'] skips first; this only guards the type.
  if (description === undefined) return ctx.skip('the run has no OpenAPI description');
  return description;
}

const shown = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

/** A token URL is the path itself, or an absolute URL whose path it is (a relative URL resolves against the server). */
function isTokenUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  if (url === TOKEN_PATH) return true;
  try {
    return new URL(url).pathname === TOKEN_PATH;
  } catch {
    return false;
  }
}

function describeScheme(scheme: SecuritySchemeFact): string {
  if (scheme.type === 'http') return `${scheme.name}: http ${scheme.scheme ?? '(no scheme)'}`;
  if (scheme.type === 'oauth2') {
    const cc = scheme.clientCredentials;
    const flows = [cc ? `clientCredentials tokenUrl ${cc.tokenUrl ?? '(none)'} scopes [${cc.scopes.join(', ')}]` : '', ...(scheme.otherFlows ?? [])].filter(Boolean);
    return `${scheme.name}: oauth2 ${flows.join(', ') || '(no flows)'}`;
  }
  return `${scheme.name}: ${scheme.type || '(no type)'}`;
}

group.concurrent('§9 The service\'s OpenAPI description', () => {
  check('DESC-01', async (ctx) => {
    const { openapi, source } = facts(ctx);
    expectThat(/^3\.1\.\d+$/.test(openapi), `the description ${source} is not OpenAPI 3.1`, '"openapi": "3.1.x" (3.1.0 in service.md §9)', `"openapi": ${shown(openapi)}`);
  });

  check('DESC-02', async (ctx) => {
    const { securitySchemes } = facts(ctx);
    const listed = securitySchemes.length === 0 ? 'no securitySchemes' : securitySchemes.map(describeScheme).join('; ');
    // RFC 7235 §2.1: an auth-scheme name is case-insensitive.
    const bearer = securitySchemes.some((scheme) => scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer');
    const oauth = securitySchemes.filter((scheme) => scheme.type === 'oauth2' && scheme.clientCredentials !== undefined);
    if (!bearer) fail('the description declares no HTTP bearer security scheme', 'a scheme of type http, scheme bearer', listed);
    if (oauth.length === 0) fail('the description declares no OAuth 2.0 client-credentials scheme', `a scheme of type oauth2 with a clientCredentials flow, tokenUrl ${TOKEN_PATH}, no scopes`, listed);
    const right = oauth.find((scheme) => isTokenUrl(scheme.clientCredentials?.tokenUrl) && scheme.clientCredentials?.scopes.length === 0);
    expectThat(right !== undefined, `the client-credentials flow does not name the token URL ${TOKEN_PATH} with no scopes`, `tokenUrl ${TOKEN_PATH}, scopes {}`, listed);
  });

  check('DESC-03', async (ctx) => {
    const { ownerIds } = facts(ctx);
    if (ownerIds === undefined) return ctx.skip('the description has no GET /api/v1/apps/{app_id}/ownerids (the service\'s 2025-09 description predates it); nothing to check');
    const id = ownerIds.operationId;
    expectThat(
      id === OWNER_IDS_OPERATION || id === OWNER_IDS_OPERATION_SPEC,
      'the owner-IDs operation has another operation ID',
      `operationId ${OWNER_IDS_OPERATION}`,
      id === undefined ? 'no operationId' : `operationId ${shown(id)}`,
    );
    expectThat(ownerIds.tags.includes(OWNER_IDS_TAG), `the owner-IDs operation is not tagged ${OWNER_IDS_TAG}`, `tags including "${OWNER_IDS_TAG}"`, ownerIds.tags.length === 0 ? 'no tags' : `tags ${ownerIds.tags.map(shown).join(', ')}`);
  });

  check('DESC-04', async (ctx) => {
    const { infoVersion, source } = facts(ctx);
    ctx.note(infoVersion === undefined ? `the description ${source} carries no info.version` : `info.version ${shown(infoVersion)}${infoVersion === '0.1.0-alpha' ? ' (as in service.md §9)' : ' (service.md §9 names 0.1.0-alpha)'}`);
  });
});
