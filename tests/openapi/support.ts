/** Small descriptions written the way the real one is (proto-derived names, `$ref`s, `nullable`), and the real one's path. */
import { existsSync } from 'node:fs';
import { isHarnessError } from '../../src/errors.js';
import { fileURLToPath } from 'node:url';

/** The real service's description, beside the repository (never copied into it): `../shared/openapi/`. */
export const REAL_DESCRIPTION = fileURLToPath(new URL('../../../shared/openapi/conductorone-2025-09.openapi.yaml', import.meta.url));
export const REAL_DESCRIPTION_RELATIVE = '../shared/openapi/conductorone-2025-09.openapi.yaml';
export const HAS_REAL_DESCRIPTION = existsSync(REAL_DESCRIPTION);
export const NO_REAL_DESCRIPTION_REASON = `${REAL_DESCRIPTION} is absent (../shared/ is not beside this checkout): the real description's test cannot run`;

/** A POST operation's YAML tail: a JSON body declaring pageSize/pageToken (components.schemas.Page), a bare 200. */
export const PAGE_BODY_YAML = `
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Page' }
      responses: { "200": { description: ok } }`;

/** A description of a few operations covering every classification row. */
export const SMALL_YAML = `openapi: 3.1.0
info:
  title: Small
  version: 0.1.0-alpha
paths:
  /api/v1/apps:
    get:
      operationId: c1.api.app.v1.Apps.List
      tags: [App]
      parameters:
        - $ref: '#/components/parameters/PageSize'
        - in: query
          name: page_token
          schema: { type: string }
      responses:
        "200":
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ListAppsResponse' }
    post:
      operationId: c1.api.app.v1.Apps.Create
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { displayName: { type: string } } }
      responses: { "200": { description: ok } }
  /api/v1/apps/{app_id}:
    get:
      operationId: c1.api.app.v1.Apps.Get
      parameters: [{ in: path, name: app_id, required: true, schema: { type: string } }]
      responses: { "200": { description: ok } }
    delete:
      operationId: c1.api.app.v1.Apps.Delete
      responses: { "200": { description: ok } }
    put:
      operationId: c1.api.app.v1.Apps.Update
      responses: { "200": { description: ok } }
  /api/v1/apps/{app_id}/entitlements:
    get:
      operationId: c1.api.app.v1.AppEntitlements.List
      tags: [App Entitlement]
      parameters:
        - { in: path, name: app_id, required: true, schema: { type: string } }
        - { in: query, name: page_size, schema: { type: integer } }
        - { in: query, name: page_token, schema: { type: string } }
      responses:
        "200":
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ListAppEntitlementsResponse' }
  /api/v1/apps/{app_id}/ownerids:
    get:
      operationId: c1.api.app.v1.AppOwners.ListOwnerIDs
      tags: [App Owner]
      responses: { "200": { description: ok } }
  /api/v1/search/apps:
    post:
      operationId: c1.api.app.v1.AppSearch.Search
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/SearchAppsRequest' }
      responses:
        "200":
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ListAppsResponse' }
  /api/v1/legacy/find:
    post:
      operationId: legacy.Finder.Find
      requestBody:
        content:
          application/json:
            schema:
              allOf:
                - { type: object, properties: { page_size: { type: integer } } }
                - { type: object, properties: { page_token: { type: string } } }
      responses: { "200": { description: ok } }
  /api/v1/apps/{app_id}/users/{user_id}/grants:
    get:
      operationId: c1.api.app.v1.Grants.List
      parameters:
        - { in: query, name: page_size, schema: { type: integer } }
        - { in: query, name: page_token, schema: { type: string } }
      responses: { "200": { description: ok } }
components:
  parameters:
    PageSize: { in: query, name: page_size, schema: { type: integer } }
  securitySchemes:
    bearerAuth: { type: http, scheme: bearer }
    oauth:
      type: oauth2
      flows:
        clientCredentials: { tokenUrl: /auth/v1/token, scopes: {} }
  schemas:
    SearchAppsRequest:
      type: object
      properties:
        pageSize: { type: integer, nullable: true }
        pageToken: { type: string, nullable: true }
        query: { type: string }
    ListAppsResponse:
      type: object
      properties:
        list: { type: [array, "null"], items: { $ref: '#/components/schemas/App' } }
        nextPageToken: { type: string, nullable: true }
    App:
      type: object
      properties:
        id: { type: string }
        parent: { $ref: '#/components/schemas/App' }
    ListAppEntitlementsResponse:
      type: object
      properties:
        list: { type: array, items: { $ref: '#/components/schemas/c1.api.app.v1.AppEntitlementView' } }
        nextPageToken: { type: string }
    c1.api.app.v1.AppEntitlementView:
      type: object
      properties:
        appEntitlement: { $ref: '#/components/schemas/Entitlement' }
        appPath: { type: string }
    Entitlement:
      type: object
      required: [id]
      properties:
        id: { type: string }
        children: { type: array, items: { $ref: '#/components/schemas/Entitlement' } }
`;

/** The HarnessError `fn` throws (its code and message); any other outcome fails the test. */
export function harnessError(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isHarnessError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no HarnessError thrown');
}
