import { defineConfig } from 'vitest/config';

// `npm test`: the project's own tests (unit, integration, CLI end-to-end). The conformance suites under
// suites/ are not collected here; the engine runs them against a target, and tests/ drive that engine.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
