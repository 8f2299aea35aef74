/**
 * The bound on a run's operations (`--max-operations`): a description that plans more list and search
 * operations than the run may check one by one stops the run before its first check, with a harness error
 * that says what was planned and which flag bounds it (exit 2, reports written), instead of a run of
 * hours or one that outgrows its memory.
 */
import { HarnessError } from '../errors.js';
import type { Requirement } from '../requirements/catalogue.js';
import { OPERATION_BUDGET, expandPerOperation, type OperationFilter, type OperationLike } from './operation-keys.js';

/**
 * Throws RUN_TOO_LARGE when the selected per-operation checks (`keep`: --only/--skip by operation) would
 * check more of the called operations than `maxOperations`.
 */
export function refuseTooManyOperations(called: readonly OperationLike[] | undefined, selected: readonly Requirement[], keep: OperationFilter, maxOperations: number): void {
  if (called === undefined || called.length <= maxOperations) return;
  const operations = new Set<string>();
  let results = 0;
  for (const req of selected) {
    if (req.perOperation === undefined) continue;
    for (const check of expandPerOperation(req, called, keep)) {
      if (check.operation === undefined) continue;
      results += 1;
      operations.add(`${check.operation.method} ${check.operation.path}`);
    }
  }
  if (operations.size <= maxOperations) return;
  const requests = operations.size * (OPERATION_BUDGET.censusPages + OPERATION_BUDGET.walkPages + OPERATION_BUDGET.requests);
  const count = (n: number): string => n.toLocaleString('en-US');
  throw new HarnessError(
    'RUN_TOO_LARGE',
    `the OpenAPI description plans ${count(operations.size)} operations to check one by one (${count(results)} per-operation results, at most ${count(requests)} requests), more than --max-operations ${count(maxOperations)} allows; no check was started`,
    {
      field: '--max-operations',
      hint: `raise --max-operations to ${count(operations.size)} or more (the run's deadline and memory grow with it), narrow the checks with --only/--skip (e.g. --skip "OPS-*"), or give a description with fewer list and search operations`,
    },
  );
}
