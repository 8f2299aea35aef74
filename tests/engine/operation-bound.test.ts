/**
 * --max-operations (src/engine/operation-bound.ts): a description that plans more operations than the
 * bound stops the run before any check with RUN_TOO_LARGE, naming the operations, results and requests
 * planned and the flag; the selection by operation (--only/--skip) counts, and without per-operation
 * checks selected nothing is refused.
 */
import { describe, expect, it } from 'vitest';
import { refuseTooManyOperations } from '../../src/engine/operation-bound.js';
import { allRequirements } from '../../src/requirements/catalogue.js';
import { isHarnessError } from '../../src/errors.js';

const called = Array.from({ length: 30 }, (_, i) => ({ method: 'GET', path: `/api/v1/g${i}/apps`, paginated: 'query' as const }));
const all = () => true;

describe('the bound on operations', () => {
  it('refuses more operations than the bound, saying what was planned and which flag bounds it', () => {
    let thrown: unknown;
    try {
      refuseTooManyOperations(called, allRequirements(), all, 20);
    } catch (error) {
      thrown = error;
    }
    expect(isHarnessError(thrown)).toBe(true);
    const error = thrown as { code: string; message: string; hint: string };
    expect(error.code).toBe('RUN_TOO_LARGE');
    expect(error.message).toMatch(/plans 30 operations .* per-operation results, at most [\d,]+ requests\), more than --max-operations 20/);
    expect(error.hint).toContain('--max-operations');
  });

  it('lets a run within the bound, or one whose selection keeps few operations, go on', () => {
    expect(() => refuseTooManyOperations(called, allRequirements(), all, 30)).not.toThrow();
    expect(() => refuseTooManyOperations(called, allRequirements(), (_id, op) => op.path.endsWith('/g1/apps'), 1)).not.toThrow();
    expect(() => refuseTooManyOperations(called, allRequirements().filter((req) => req.perOperation === undefined), all, 1)).not.toThrow();
    expect(() => refuseTooManyOperations(undefined, allRequirements(), all, 1)).not.toThrow();
  });
});
