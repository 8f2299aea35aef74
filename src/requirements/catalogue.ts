/**
 * The one requirements catalogue: every check of every suite, with its stable ID, the spec section, its
 * level and the sentence it verifies. Area files under src/requirements/ hold the entries; this module
 * merges them and gives the typed ID union. Suites, faults, baselines and reports refer to these IDs.
 */
import type { Level, Need, RequirementSpec } from './types.js';
import { credentialsRequirements } from './credentials.js';
import { tokensRequirements } from './tokens.js';
import { tokenResponseRequirements } from './token-responses.js';
import { apiAuthRequirements } from './api-auth.js';
import { ownersRequirements } from './owners.js';
import { paginationRequirements } from './pagination.js';
import { operationsRequirements } from './operations.js';
import { webhookCommonRequirements } from './webhook-common.js';
import { webhookHmacRequirements } from './webhook-hmac.js';
import { webhookJwtRequirements } from './webhook-jwt.js';
import { idempotencyRequirements } from './idempotency.js';
import { automationsRequirements } from './automations.js';
import { webhookHmacAttackRequirements } from './webhook-hmac-attacks.js';
import { webhookAttackRequirements } from './webhook-attacks.js';
import { credentialAttackRequirements } from './credential-attacks.js';
import { idempotencyAttackRequirements } from './idempotency-attacks.js';
import { contextFidelityRequirements } from './context-fidelity.js';
import { apiAttackRequirements } from './api-attacks.js';
import { webhookJwtAttackRequirements } from './webhook-jwt-attacks.js';
import { tokenAttackRequirements } from './token-attacks.js';
import { descriptionRequirements } from './description.js';

export type { Authority, Level, Need, RequirementSpec } from './types.js';
export { describeAuthority } from './authority.js';

const areas = {
  ...credentialsRequirements,
  ...tokensRequirements,
  ...tokenResponseRequirements,
  ...apiAuthRequirements,
  ...ownersRequirements,
  ...paginationRequirements,
  ...operationsRequirements,
  ...webhookCommonRequirements,
  ...webhookHmacRequirements,
  ...webhookJwtRequirements,
  ...idempotencyRequirements,
  ...automationsRequirements,
  ...webhookHmacAttackRequirements,
  ...webhookAttackRequirements,
  ...credentialAttackRequirements,
  ...idempotencyAttackRequirements,
  ...contextFidelityRequirements,
  ...apiAttackRequirements,
  ...webhookJwtAttackRequirements,
  ...tokenAttackRequirements,
  ...descriptionRequirements,
} as const;

export const catalogue = areas satisfies Record<string, RequirementSpec>;

export type RequirementId = keyof typeof catalogue;

export interface Requirement extends RequirementSpec {
  readonly id: RequirementId;
}

/** Bump when an ID is added, removed or its meaning changes; reports carry it. */
export const CATALOGUE_VERSION = '1.3.0';

export function requirement(id: RequirementId): Requirement {
  return { id, ...(catalogue[id] as RequirementSpec) };
}

export function allRequirements(): Requirement[] {
  return (Object.keys(catalogue) as RequirementId[]).map(requirement);
}

export function isRequirementId(value: string): value is RequirementId {
  return Object.prototype.hasOwnProperty.call(catalogue, value);
}

export type { Level as RequirementLevel, Need as RequirementNeed };
