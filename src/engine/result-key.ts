/**
 * The identity of one result in a run: its requirement ID, or `ID@METHOD path` for one operation's result
 * of a per-operation requirement (ruling 34). Collector, reporters and reruns name a result by it; the key
 * and the label are the operation's own (src/openapi/operation.ts).
 */
import { operationKey } from '../openapi/operation.js';
import type { CheckResult } from './types.js';

export { operationLabel, operationName, sentPathLine } from '../openapi/operation.js';

export function resultKey(result: Pick<CheckResult, 'id' | 'operation'>): string {
  return result.operation ? operationKey(result.id, result.operation) : result.id;
}
