/**
 * The one requirements catalogue: every check of every suite, with its stable ID, the spec section, its
 * level and the sentence it verifies. Area files under src/requirements/ hold the entries; this module
 * merges them and gives the typed ID union. Suites, faults, baselines and reports refer to these IDs.
 */
import type { Level, Need, RequirementSpec } from './requirements/types.js';
// AREA IMPORTS (each area file exports one `as const satisfies Catalogue` object)

export type { Level, Need, RequirementSpec } from './requirements/types.js';

const areas = {
  // AREA ENTRIES
} as const;

export const catalogue = areas satisfies Record<string, RequirementSpec>;

export type RequirementId = keyof typeof catalogue;

export interface Requirement extends RequirementSpec {
  readonly id: RequirementId;
}

/** Bump when an ID is added, removed or its meaning changes; reports carry it. */
export const CATALOGUE_VERSION = '1.0.0';

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
