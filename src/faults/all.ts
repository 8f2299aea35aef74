/**
 * The registry: every fault, declared once as an entry of its area's table (`src/faults/<area>.ts`, named
 * after the requirement group it breaks: a suite's file name, the `group` of the catalogue entries). The
 * area of each entry is its table's, set here and nowhere else. A new area is one table file and one row.
 */
import type { FaultArea, FaultDefinition, FaultTable } from './types.js';
import { customizeOf } from './support/define.js';
import { FAULTS as apiAuth } from './api-auth.js';
import { FAULTS as automations } from './automations.js';
import { FAULTS as credentials } from './credentials.js';
import { FAULTS as description } from './description.js';
import { FAULTS as idempotency } from './idempotency.js';
import { FAULTS as operations } from './operations.js';
import { FAULTS as owners } from './owners.js';
import { FAULTS as pagination } from './pagination.js';
import { FAULTS as tokens } from './tokens.js';
import { FAULTS as webhookCommon } from './webhook-common.js';
import { FAULTS as webhookHmac } from './webhook-hmac.js';
import { FAULTS as webhookJwt } from './webhook-jwt.js';

/** Each area's table under the area's name. */
const TABLES: Record<FaultArea, FaultTable> = {
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

export const ALL_FAULTS: readonly FaultDefinition[] = Object.entries(TABLES).flatMap(([area, table]) =>
  table.map(({ name, description, breaks, explains, ...behaviour }) => ({
    name,
    area: area as FaultArea,
    description,
    breaks,
    ...(explains ? { explains } : {}),
    customize: customizeOf(name, behaviour),
  })),
);
