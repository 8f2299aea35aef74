/**
 * The registry: every fault, one file each, in folders named after the requirement group it breaks (a
 * suite's file name, the `group` of the catalogue entries). A fault is registered by the `export *` line in
 * its folder's index.ts; its area is its folder's name, set here and nowhere else (tests/faults/registry.test.ts
 * checks that every fault's file lies in the folder of its area). A new folder is one import and one row.
 */
import type { FaultArea, FaultDeclaration, FaultDefinition } from './types.js';
import * as apiAuth from './api-auth/index.js';
import * as automations from './automations/index.js';
import * as credentials from './credentials/index.js';
import * as description from './description/index.js';
import * as idempotency from './idempotency/index.js';
import * as operations from './operations/index.js';
import * as owners from './owners/index.js';
import * as pagination from './pagination/index.js';
import * as tokens from './tokens/index.js';
import * as webhookCommon from './webhook-common/index.js';
import * as webhookHmac from './webhook-hmac/index.js';
import * as webhookJwt from './webhook-jwt/index.js';

/** Each folder's faults under the folder's name. */
const FOLDERS: Record<FaultArea, Record<string, FaultDeclaration>> = {
  'api-auth': apiAuth,
  automations,
  credentials,
  description,
  idempotency,
  operations,
  owners,
  pagination,
  tokens,
  'webhook-common': webhookCommon,
  'webhook-hmac': webhookHmac,
  'webhook-jwt': webhookJwt,
};

export const ALL_FAULTS: readonly FaultDefinition[] = Object.entries(FOLDERS).flatMap(([area, folder]) =>
  Object.values(folder).map((fault) => ({ ...fault, area: area as FaultArea })),
);
