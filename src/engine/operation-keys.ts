/**
 * Per-operation requirements (ruling 34) expanded over the run's called operations, once: one check per
 * operation a requirement applies to, in the plan's order. The engine's expected results and the suites'
 * `checkEach` (suites/support/check.ts) both iterate {@link operationChecks}, so keys and test titles are
 * the same by construction.
 */
import { operationKey, operationRef, type OperationRef } from '../openapi/operation.js';
import type { Requirement, RequirementSpec } from '../requirements/catalogue.js';

/** The list and search operation facts {@link appliesTo} reads (a PlannedOperation of src/openapi has them). */
export interface OperationFacts {
  method: string;
  path: string;
  paginated: 'query' | 'body' | false;
  itemWrapper?: string;
  responseSchema?: unknown;
}

/** Which of the called operations a per-operation requirement applies to. */
export type PerOperation = NonNullable<RequirementSpec['perOperation']>;

export function appliesTo(kind: PerOperation, op: OperationFacts): boolean {
  switch (kind) {
    case 'every':
      return true;
    case 'paginated':
      return op.paginated !== false;
    case 'body':
      return op.paginated === 'body';
    case 'wrapped':
      return op.paginated !== false && op.itemWrapper !== undefined && op.itemWrapper !== '';
    case 'schema':
      return op.responseSchema !== undefined;
  }
}

/** Why a per-operation requirement has no operation to check in a run (its one skipped result says it). */
export function noOperationReason(kind: PerOperation, planned: boolean): string {
  if (!planned) return 'the run has no operations to check one by one: the profile names no OpenAPI description ("openapi", or run --openapi) and no "operations"';
  switch (kind) {
    case 'every':
      return 'the run calls no list or search operation';
    case 'paginated':
      return 'the run calls no paginated operation';
    case 'body':
      return 'the run calls no search (POST) operation that takes its page size in the JSON body';
    case 'wrapped':
      return 'no called operation has an item wrapper named by its description or service.md';
    case 'schema':
      return 'no called operation has a response schema in its description';
  }
}

/**
 * Pages one operation's checks may fetch at most (the walks included), with the page sizes they use: the
 * run header states the cost from these, and the suites stop a walk at its share.
 */
export const OPERATION_BUDGET = {
  /** The counting walk at page size 100 (totals are learned, never taken from the profile). */
  censusPages: 30,
  /** The walk at the default size (25). */
  walkPages: 60,
  /** Single requests of the other checks (auth, clamps, tokens, spellings, schema). */
  requests: 14,
} as const;

/** What the engine reads of a planned operation (src/openapi's PlannedOperation has it). */
export type OperationLike = OperationFacts & { operationId?: string };

/** One result the run expects: a requirement, or one of its operations. */
export interface ExpectedCheck {
  /** The requirement ID, or `ID@METHOD path`. */
  key: string;
  req: Requirement;
  operation?: OperationRef;
}

/** One operation's check of a per-operation requirement: its key, its reference and the planned operation. */
export interface OperationCheck<Op extends OperationLike> {
  key: string;
  operation: OperationRef;
  op: Op;
}

/** `req`'s checks over `called`, one per operation it applies to (none for a requirement that is not per operation). */
export function operationChecks<Op extends OperationLike>(req: Requirement, called: readonly Op[] | undefined): OperationCheck<Op>[] {
  if (req.perOperation === undefined || called === undefined) return [];
  const kind = req.perOperation;
  return called.filter((op) => appliesTo(kind, op)).map((op) => ({ key: operationKey(req.id, op), operation: operationRef(op), op }));
}

/** Which operations' results the selection keeps (selection.ts `operationSelector`). */
export type OperationFilter = (id: string, operation: OperationRef) => boolean;

/**
 * `req`'s expected results: one per operation it applies to that the selection keeps; itself when it
 * applies to none (its check skips saying why); none when the selection dropped every one of them.
 */
export function expandPerOperation(req: Requirement, called: readonly OperationLike[] | undefined, keep: OperationFilter = () => true): ExpectedCheck[] {
  const checks = operationChecks(req, called);
  if (checks.length === 0) return [{ key: req.id, req }];
  return checks.map(({ key, operation }) => ({ key, req, operation })).filter((check) => keep(req.id, check.operation));
}

/**
 * The header's line of what the per-operation checks will cost: how many operations, and at most how many
 * requests (each operation's page budget: the counting walk at 100, the walk at 25, the single requests).
 */
export function operationsCostNote(called: readonly OperationLike[] | undefined, selected: readonly Requirement[]): string[] {
  if (called === undefined || called.length === 0) return [];
  if (!selected.some((req) => req.perOperation !== undefined)) return [];
  const searches = called.filter((op) => op.paginated === 'body').length;
  const lists = called.filter((op) => op.paginated === 'query').length;
  const perOperation = OPERATION_BUDGET.censusPages + OPERATION_BUDGET.walkPages + OPERATION_BUDGET.requests;
  return [
    `per-operation checks (ruling 34) on ${called.length} operation${called.length === 1 ? '' : 's'} (${lists} listed with the page size in the query, ${searches} searches with it in the JSON body): at most ${perOperation} requests each (a counting walk of up to ${OPERATION_BUDGET.censusPages} pages at page size 100, a walk of up to ${OPERATION_BUDGET.walkPages} pages at 25, ${OPERATION_BUDGET.requests} single requests), ${perOperation * called.length} in all, within the run's deadline and --rate-limit`,
  ];
}
