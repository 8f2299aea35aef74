/** The facts of a description that ruling 34 checks (§9, §5.1), read once at load. */
import { isObject, type Json } from './pointer.js';
import type { DescribedOperation, DescriptionFacts, SecuritySchemeFact } from './types.js';

/** The owner-IDs operation's path (§4.2, ruling 34). */
export const OWNER_IDS_PATH = '/api/v1/apps/{app_id}/ownerids';

export function descriptionFacts(doc: Json, source: string, operations: DescribedOperation[]): DescriptionFacts {
  const info = isObject(doc.info) ? doc.info : {};
  const owner = operations.find((op) => op.method === 'GET' && op.path === OWNER_IDS_PATH);
  return {
    source,
    openapi: typeof doc.openapi === 'string' ? doc.openapi : String(doc.openapi),
    ...(typeof info.version === 'string' ? { infoVersion: info.version } : {}),
    securitySchemes: securitySchemes(doc),
    ...(owner ? { ownerIds: { ...(owner.operationId ? { operationId: owner.operationId } : {}), tags: owner.tags } } : {}),
    counts: {
      operations: operations.length,
      paginated: operations.filter((op) => op.paginated !== false).length,
      query: operations.filter((op) => op.paginated === 'query').length,
      body: operations.filter((op) => op.paginated === 'body').length,
    },
  };
}

function securitySchemes(doc: Json): SecuritySchemeFact[] {
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return Object.entries(schemes).map(([name, raw]) => {
    const scheme = isObject(raw) ? raw : {};
    const fact: SecuritySchemeFact = { name, type: typeof scheme.type === 'string' ? scheme.type : '' };
    if (typeof scheme.scheme === 'string') fact.scheme = scheme.scheme;
    if (isObject(scheme.flows)) {
      const { clientCredentials, ...others } = scheme.flows;
      if (isObject(clientCredentials)) {
        fact.clientCredentials = {
          ...(typeof clientCredentials.tokenUrl === 'string' ? { tokenUrl: clientCredentials.tokenUrl } : {}),
          scopes: isObject(clientCredentials.scopes) ? Object.keys(clientCredentials.scopes) : [],
        };
      }
      if (Object.keys(others).length > 0) fact.otherFlows = Object.keys(others);
    }
    return fact;
  });
}
