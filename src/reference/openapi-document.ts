/**
 * The reference's own OpenAPI 3.1 description (service.md §9; ruling 34), as data: the operations it offers,
 * named, tagged and shaped as the service's public description names them (operation IDs, request and
 * response schemas), so that the official SDKs' methods and page iterators work against it. Served at
 * {@link OPENAPI_PATH} without a token (a description is no API call) and written next to the sandbox's
 * profile. Schemas are JSON Schema 2020-12 (OpenAPI 3.1), `null` spelled as a type.
 */
export const OPENAPI_PATH = '/openapi.json';

const nullable = (type: string): { type: string[] } => ({ type: [type, 'null'] });
const ref = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
const stringList = { type: ['array', 'null'], items: { type: 'string' } };

const pageSize = {
  ...nullable('integer'),
  format: 'int32',
  description: 'The pageSize where 0 <= pageSize <= 100. Values < 10 will be set to 10. A value of 0 returns the default page size (currently 25)',
};
const pageToken = { ...nullable('string'), description: 'The pageToken field.' };
const nextPageToken = { ...nullable('string'), description: 'The token of the next page; "" on the last page.' };

const queryPaging = [
  { in: 'query', name: 'page_size', schema: { ...pageSize } },
  { in: 'query', name: 'page_token', schema: { ...pageToken } },
];
const appIdParameter = { in: 'path', name: 'app_id', required: true, schema: { type: 'string' } };

const jsonResponse = (schema: string, description: string): unknown => ({
  200: { description, content: { 'application/json': { schema: ref(schema) } } },
  401: { description: 'No token, or an unknown or expired one.' },
});
const jsonBody = (schema: string): unknown => ({ content: { 'application/json': { schema: ref(schema) } } });

const listOf = (item: string, title: string): unknown => ({
  type: 'object',
  title,
  properties: { list: { type: ['array', 'null'], items: ref(item) }, nextPageToken },
});

/** The description for a sandbox whose API is at `baseUrl`. */
export function referenceOpenApiDocument(baseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'access-conformance reference implementation',
      version: '0.1.0-alpha',
      description: 'The operations the reference sandbox offers, shaped as the service\'s public description declares them.',
    },
    servers: [{ url: baseUrl, description: 'The sandbox.' }],
    security: [{ bearerAuth: [], oauth: [] }],
    paths: {
      '/api/v1/apps': {
        get: { operationId: 'c1.api.app.v1.Apps.List', summary: 'List', tags: ['App'], parameters: queryPaging, responses: jsonResponse('c1.api.app.v1.ListAppsResponse', 'A page of apps.') },
      },
      '/api/v1/apps/{app_id}/entitlements': {
        get: {
          operationId: 'c1.api.app.v1.AppEntitlements.List',
          summary: 'List',
          tags: ['App Entitlement'],
          parameters: [appIdParameter, ...queryPaging],
          responses: jsonResponse('c1.api.app.v1.ListAppEntitlementsResponse', 'A page of the app\'s entitlements.'),
        },
      },
      '/api/v1/apps/{app_id}/ownerids': {
        get: {
          operationId: 'c1.api.app.v1.AppOwners.ListOwnerIDs',
          summary: 'List Owner IDs',
          tags: ['App Owner'],
          parameters: [appIdParameter],
          responses: jsonResponse('c1.api.app.v1.ListAppOwnerIDsResponse', 'The IDs of the app\'s owners.'),
        },
      },
      '/api/v1/search/apps': {
        post: {
          operationId: 'c1.api.app.v1.AppSearch.Search',
          summary: 'Search',
          tags: ['App'],
          requestBody: jsonBody('c1.api.app.v1.SearchAppsRequest'),
          responses: jsonResponse('c1.api.app.v1.SearchAppsResponse', 'A page of the apps found.'),
        },
      },
      '/api/v1/search/users': {
        post: {
          operationId: 'c1.api.user.v1.UserSearch.Search',
          summary: 'Search',
          tags: ['User'],
          requestBody: jsonBody('c1.api.user.v1.SearchUsersRequest'),
          responses: jsonResponse('c1.api.user.v1.SearchUsersResponse', 'A page of the users found.'),
        },
      },
      '/api/v1/search/entitlements': {
        post: {
          operationId: 'c1.api.app.v1.AppEntitlementSearchService.Search',
          summary: 'Search',
          tags: ['App Entitlement'],
          requestBody: jsonBody('c1.api.app.v1.AppEntitlementSearchServiceSearchRequest'),
          responses: jsonResponse('c1.api.app.v1.AppEntitlementSearchServiceSearchResponse', 'A page of the entitlements found.'),
          'x-speakeasy-pagination': { type: 'cursor', inputs: [{ in: 'requestBody', name: 'pageToken', type: 'cursor' }], outputs: { nextCursor: '$.nextPageToken' } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer' },
        oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/auth/v1/token', scopes: {} } } },
      },
      schemas: {
        'c1.api.app.v1.App': {
          type: 'object',
          title: 'App',
          required: ['id'],
          properties: { id: { type: 'string' }, displayName: nullable('string'), description: nullable('string') },
        },
        'c1.api.app.v1.AppEntitlement': {
          type: 'object',
          title: 'App Entitlement',
          required: ['id', 'appId'],
          properties: { id: { type: 'string' }, appId: { type: 'string' }, displayName: nullable('string'), description: nullable('string') },
        },
        'c1.api.app.v1.AppEntitlementView': {
          type: 'object',
          title: 'App Entitlement View',
          required: ['appEntitlement'],
          properties: { appEntitlement: ref('c1.api.app.v1.AppEntitlement') },
        },
        'c1.api.user.v1.User': {
          type: 'object',
          title: 'User',
          required: ['id'],
          properties: { id: { type: 'string' }, displayName: nullable('string'), email: nullable('string'), status: nullable('string') },
        },
        'c1.api.user.v1.UserView': {
          type: 'object',
          title: 'User View',
          required: ['user'],
          properties: { user: ref('c1.api.user.v1.User') },
        },
        'c1.api.user.v1.SearchUsersResponse': listOf('c1.api.user.v1.UserView', 'Search Users Response'),
        'c1.api.user.v1.SearchUsersRequest': {
          type: 'object',
          title: 'Search Users Request',
          properties: { ids: stringList, excludeIds: stringList, query: nullable('string'), pageSize, pageToken },
        },
        'c1.api.app.v1.ListAppsResponse': listOf('c1.api.app.v1.App', 'List Apps Response'),
        'c1.api.app.v1.SearchAppsResponse': listOf('c1.api.app.v1.App', 'Search Apps Response'),
        'c1.api.app.v1.ListAppEntitlementsResponse': listOf('c1.api.app.v1.AppEntitlementView', 'List App Entitlements Response'),
        'c1.api.app.v1.AppEntitlementSearchServiceSearchResponse': listOf('c1.api.app.v1.AppEntitlementView', 'App Entitlement Search Service Search Response'),
        'c1.api.app.v1.ListAppOwnerIDsResponse': {
          type: 'object',
          title: 'List App Owner IDs Response',
          properties: { userIds: stringList },
        },
        'c1.api.app.v1.SearchAppsRequest': {
          type: 'object',
          title: 'Search Apps Request',
          properties: { appIds: stringList, excludeAppIds: stringList, query: nullable('string'), pageSize, pageToken },
        },
        'c1.api.app.v1.AppEntitlementSearchServiceSearchRequest': {
          type: 'object',
          title: 'App Entitlement Search Service Search Request',
          properties: { appIds: stringList, excludeAppIds: stringList, query: nullable('string'), pageSize, pageToken },
        },
      },
    },
  };
}
