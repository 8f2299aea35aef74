/**
 * The description checks' one need: a run without an OpenAPI description skips DESC-* saying how to give
 * one; a run with one (its facts in RunContext.operations) runs them.
 */
import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../src/engine/check-meta.js';
import { describeText, planOperations } from '../../src/openapi/index.js';
import { requirement } from '../../src/requirements/catalogue.js';
import { missingNeed } from '../../suites/support/needs.js';
import { SMALL_YAML } from '../openapi/support.js';

const profile = { apps: { entitlements: {} } } as unknown as RunContext['profile'];
const run = (operations?: RunContext['operations']): RunContext => ({ runId: 'r', profile, client: {}, concurrency: 8, checkTimeoutMs: 10_000, passedExchanges: true, seed: 's', capabilities: { clock: false, runs: false }, ...(operations ? { operations } : {}) });

describe('DESC-* need an OpenAPI description', () => {
  for (const id of ['DESC-01', 'DESC-02', 'DESC-03', 'DESC-04'] as const) {
    it(`${id}: skipped without one, saying how to give it; run with one`, () => {
      const { needs } = requirement(id);
      expect(missingNeed(run(), needs)).toBe('the run has no OpenAPI description of the service (give --openapi FILE|URL, or "openapi" in the profile)');
      // The profile's "operations" alone make a plan but no description: still skipped.
      expect(missingNeed(run(planOperations({ profile, profileOperations: [{ method: 'GET', path: '/x' }] })), needs)).toBeDefined();
      expect(missingNeed(run(planOperations({ profile, description: describeText(SMALL_YAML, 'small.yaml') })), needs)).toBeUndefined();
    });
  }
});
