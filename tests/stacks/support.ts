/** Independent implementations on other stacks (fixtures/stacks/): why one cannot run here. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stackSubject } from '../../src/mutation/verify-variants.js';
import { allRequirements } from '../../src/requirements/catalogue.js';
import { getStack } from '../../src/variants/index.js';
import { runCli, type CliResult, type StartedProcess } from '../cli/support.js';
import { describeWith, type Capability } from '../support/capabilities.js';

/** What a probe command printed when it exited non-zero, or why it could not start; undefined when it ran clean. */
export function probeFails(command: string, args: string[]): string | undefined {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${command} cannot be run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})`;
  return probe.status === 0 ? undefined : probe.stdout.trim() || `${command} exited with ${probe.status}`;
}

/**
 * The stack fixtures write profiles with "operations" (their one list operation, the entitlements list, page
 * size in the query) but no OpenAPI description: the per-operation checks for every operation and every
 * paginated one (OPS-01..13, 18) run on it and count like any other; the checks that need the description
 * itself (DESC-*), a search (page size in the body), a response schema or a named item wrapper have no
 * operation to run on and are skipped, each saying why.
 */
const NOT_APPLICABLE_KINDS: ReadonlySet<string> = new Set(['body', 'schema', 'wrapped']);
const NEEDS_DESCRIPTION = new Set<string>(
  allRequirements()
    .filter((req) => req.needs.includes('openapi') || (req.perOperation !== undefined && NOT_APPLICABLE_KINDS.has(req.perOperation)))
    .map((req) => req.id),
);
function withoutDescription(result: ReportResult): boolean {
  return NEEDS_DESCRIPTION.has(result.id) && result.state === 'skipped' && (result.reason ?? '').length > 0;
}

interface ReportResult {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO';
  state: string;
  reason?: string;
  failure?: { message: string };
}

/**
 * The two promises issue 20 makes of a stack's implementation, as one describe: started by `start` (in a
 * scratch folder, writing its profile), the default `run --profile` passes (exit 0, every MUST passed), and
 * the SHOULD checks that fail are exactly those the stack's variants declare (what --strict fails).
 */
export function describeStackRun(
  title: string,
  stackName: string,
  /** What is missing to run it, and the capability that stands for it (.ci/run declares what it installed). */
  missing: { capability: Capability; reason: string } | undefined,
  start: (dir: string, profile: string) => Promise<StartedProcess>,
  setupTimeoutMs: number,
): void {
  describeWith(missing?.capability ?? 'go', missing === undefined, missing?.reason ?? '', title, () => {
    const dir = mkdtempSync(join(tmpdir(), `ac-${stackName}-`));
    const profile = join(dir, 'target.json');
    let server: StartedProcess | undefined;
    let run: CliResult;
    let results: ReportResult[] = [];

    beforeAll(async () => {
      server = await start(dir, profile);
      run = await runCli(['run', '--profile', profile, '--reporter', 'json', '--out', join(dir, 'reports')], { timeoutMs: 240_000 });
      results = (JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as { results: ReportResult[] }).results;
    }, setupTimeoutMs);

    afterAll(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('passes the default run: exit 0, every MUST check passed', () => {
      const notPassed = results.filter((result) => result.level === 'MUST' && result.state !== 'passed' && !withoutDescription(result));
      expect(notPassed.map((result) => `${result.id} ${result.state}: ${result.failure?.message ?? result.reason ?? ''}`), server?.output()).toEqual([]);
      expect(results.filter((result) => result.level === 'MUST').length).toBe(allRequirements().filter((req) => req.level === 'MUST').length);
      expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
    });

    it(`fails exactly the SHOULD checks the ${stackName} variants declare (what --strict fails)`, () => {
      const failed = results.filter((result) => result.level === 'SHOULD' && result.state !== 'passed' && !withoutDescription(result)).map((result) => result.id);
      expect(failed.sort()).toEqual([...stackSubject(getStack(stackName)!).warns].sort());
    });
  });
}
