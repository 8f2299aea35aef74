/**
 * The identity of one result in a run: its requirement ID, or `ID@METHOD path` for one operation's result
 * of a per-operation requirement (ruling 34). Collector, reporters and reruns name a result by it.
 */
import { operationKey } from '../requirements/operations.js';
import type { CheckResult } from './types.js';

export function resultKey(result: Pick<CheckResult, 'id' | 'operation'>): string {
  return result.operation ? operationKey(result.id, result.operation) : result.id;
}

/** How a report names an operation: `POST /api/v1/search/apps (c1.api.app.v1.AppSearch.Search)`. */
export function operationLabel(operation: NonNullable<CheckResult['operation']>): string {
  return `${operation.method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`;
}
