/**
 * The fault registry and the verification's judging, without running any suite: declarations name real
 * requirements, every MUST is declared broken by some fault, plans select the right groups, and the judge
 * and the score read reports the way the self-verification relies on.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { combineFaults, faults, getFault, listFaults } from '../../src/faults/index.js';
import { listVariants } from '../../src/variants/index.js';
import { FAULT_LIST_BEGIN, FAULT_LIST_END, renderFaultList, replaceFaultList } from '../../src/mutation/fault-list.js';
import { compactIds, renderScoreTable } from '../../src/mutation/score-table.js';
import type { FaultDefinition } from '../../src/faults/types.js';
import { judgeFault, judgeReference, scoreOf, type FinishedRun } from '../../src/mutation/verify.js';
import { planFault, planReference, SMOKE_IDS } from '../../src/mutation/verify-plan.js';
import { allRequirements, isRequirementId, type RequirementId } from '../../src/requirements/catalogue.js';
import { linesNaming } from './support/name-lines.js';

const requirements = allRequirements();

function fakeFault(breaks: RequirementId[], explains: Partial<Record<RequirementId, string>> = {}): FaultDefinition {
  return { name: 'fake-fault', area: 'tokens', description: 'test double', breaks, explains, customize: {} };
}

function run(fault: FaultDefinition, states: Record<string, 'passed' | 'failed' | 'errored' | 'skipped'>): FinishedRun {
  return {
    plan: planFault(fault),
    report: { results: Object.entries(states).map(([id, state]) => ({ id, state })), harnessErrors: [] },
    durationMs: 1,
  };
}

describe('fault registry', () => {
  test('holds at least 45 faults with unique kebab-case names, descriptions and known areas', () => {
    const all = listFaults();
    expect(all.length).toBeGreaterThanOrEqual(45);
    expect(new Set(all.map((fault) => fault.name)).size).toBe(all.length);
    for (const fault of all) {
      expect(fault.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.description.length).toBeGreaterThan(20);
      expect(getFault(fault.name)).toBe(fault);
    }
    expect(getFault('no-such-fault')).toBeUndefined();
    expect(getFault('constructor')).toBeUndefined();
  });

  test('a fault is declared once: its name stands on one line of src/, the entry in its area\'s table', () => {
    // Adding a fault is one entry in one table: no index line, no export, no file named after it. A `--help`
    // example may name a fault too (the files in HELP_EXAMPLES), no more than a few lines in all.
    const HELP_EXAMPLES = new Set(['src/cli/commands/run-options.ts', 'src/cli/commands/serve.ts', 'src/cli/shared-options.ts']);
    const lines = linesNaming(listFaults().map((fault) => fault.name));
    let examples = 0;
    const elsewhere: string[] = [];
    for (const fault of listFaults()) {
      const all = lines.get(fault.name)!;
      const declared = all.filter((at) => !HELP_EXAMPLES.has(at.file));
      examples += all.length - declared.length;
      const where = declared.map((at) => `${at.file}:${at.line}`);
      if (where.length !== 1 || !where[0]!.startsWith(`src/faults/${fault.area}.ts:`)) elsewhere.push(`${fault.name}: ${where.join(', ')}`);
    }
    expect(elsewhere).toEqual([]);
    expect(examples).toBeLessThanOrEqual(6);
  });

  test('a fault\'s area is its table\'s, and every table is named after a requirement group', () => {
    // The vocabulary is the catalogue's: `--only webhook-hmac`'s group, the suite file, the fault table.
    const dir = join(packageRoot(), 'src', 'faults');
    const groups = new Set(requirements.map((req) => req.group));
    const tables = readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && !['all.ts', 'index.ts', 'types.ts'].includes(file))
      .map((file) => file.replace(/\.ts$/, ''));
    for (const table of tables) expect(groups.has(table), `src/faults/${table}.ts is not a requirement group`).toBe(true);
    expect(new Set(listFaults().map((fault) => fault.area))).toEqual(new Set(tables));
  });

  test('declarations name catalogue requirements, never the same one as broken and as explained', () => {
    for (const fault of Object.values(faults)) {
      expect(fault.breaks.length, fault.name).toBeGreaterThan(0);
      for (const id of fault.breaks) expect(isRequirementId(id), `${fault.name}: ${id}`).toBe(true);
      for (const [id, why] of Object.entries(fault.explains ?? {})) {
        expect(isRequirementId(id), `${fault.name}: ${id}`).toBe(true);
        expect(fault.breaks as string[], `${fault.name}: ${id} is both broken and explained`).not.toContain(id);
        expect(why!.length, `${fault.name}: ${id} needs a reason`).toBeGreaterThan(10);
      }
      // INFO checks never fail: declaring one broken could never be caught.
      for (const id of fault.breaks) expect(requirements.find((req) => req.id === id)?.level, `${fault.name}: ${id}`).not.toBe('INFO');
    }
  });

  test('every MUST requirement is declared broken by a fault, every SHOULD by a fault or a variant\'s warning', () => {
    const declared = new Set(listFaults().flatMap((fault) => fault.breaks as string[]));
    const warned = new Set(listVariants().flatMap((variant) => variant.warns as string[]));
    const missing = requirements
      .filter((req) => (req.level === 'MUST' && !declared.has(req.id)) || (req.level === 'SHOULD' && !declared.has(req.id) && !warned.has(req.id)))
      .map((req) => req.id);
    expect(missing).toEqual([]);
  });

  test('combineFaults nests wrappers (first innermost) and merges port replacements', async () => {
    const order: string[] = [];
    const mark = (name: string): FaultDefinition => ({
      ...fakeFault(['TOK-01']),
      name,
      customize: {
        wrapHandler: (handler) => async (request) => {
          order.push(name);
          return handler(request);
        },
        deps: () => ({ logger: () => order.push(`log:${name}`) }),
      },
    });
    const combined = combineFaults([mark('inner'), mark('outer')]);
    const handler = combined.wrapHandler!(async () => ({ status: 204, headers: {}, body: '' }), {} as never);
    await handler({ method: 'GET', url: '/', headers: {}, remoteAddress: '127.0.0.1', body: Buffer.alloc(0) });
    expect(order).toEqual(['outer', 'inner']);
    const deps = combined.deps!({} as never, {} as never);
    deps.logger?.('x');
    expect(order.at(-1)).toBe('log:outer');
  });
});

describe('verification plans', () => {
  test('a fault runs the groups of its breaks and explains, plus the smoke checks', () => {
    const plan = planFault(fakeFault(['TOK-09'], { 'PAGE-14': 'because' }));
    expect(plan.groups).toEqual(['pagination', 'tokens']);
    for (const req of requirements.filter((r) => r.group === 'tokens' || r.group === 'pagination')) expect(plan.ids).toContain(req.id);
    for (const id of SMOKE_IDS) expect(plan.ids).toContain(id);
    expect(plan.ids).not.toContain('WH-HMAC-01');
  });

  test('an explained smoke check does not pull its whole group in', () => {
    const plan = planFault(fakeFault(['TOK-01'], { 'OWN-01': 'no token, no API call' }));
    expect(plan.groups).toEqual(['tokens']);
    expect(plan.ids).toContain('OWN-01');
    expect(plan.ids).not.toContain('OWN-02');
  });

  test('the reference plan selects the whole catalogue', () => {
    expect(planReference().ids).toEqual([]);
    expect(planReference().groups.length).toBe(new Set(requirements.map((req) => req.group)).size);
  });
});

describe('judging a run', () => {
  test('a fault whose declared checks fail, and nothing else, is caught and verified', () => {
    const fault = fakeFault(['TOK-09'], { 'TOK-10': 'same rule' });
    const outcome = judgeFault(fault, run(fault, { 'TOK-09': 'failed', 'TOK-10': 'failed', 'TOK-01': 'passed' }));
    expect(outcome).toMatchObject({ caught: true, verified: true, missing: [], unexplained: [], stale: [], explainedFailures: 1 });
  });

  test('a declared break that passes or errors is missing: the fault is not caught', () => {
    const fault = fakeFault(['TOK-09', 'TOK-10']);
    const outcome = judgeFault(fault, run(fault, { 'TOK-09': 'failed', 'TOK-10': 'errored' }));
    expect(outcome.caught).toBe(false);
    expect(outcome.missing.map((note) => note.id)).toEqual(['TOK-10']);
  });

  test('an extra failure without an explanation, or an explanation that no longer holds, fails verification', () => {
    const fault = fakeFault(['TOK-09'], { 'TOK-11': 'stale reason' });
    const outcome = judgeFault(fault, run(fault, { 'TOK-09': 'failed', 'TOK-10': 'errored', 'TOK-11': 'passed' }));
    expect(outcome.caught).toBe(true);
    expect(outcome.verified).toBe(false);
    expect(outcome.unexplained.map((note) => note.id)).toEqual(['TOK-10']);
    expect(outcome.stale).toEqual(['TOK-11']);
  });

  test('a run without a report catches nothing', () => {
    const fault = fakeFault(['TOK-09']);
    const outcome = judgeFault(fault, { plan: planFault(fault), error: 'worker died', durationMs: 1 });
    expect(outcome).toMatchObject({ caught: false, verified: false, error: 'worker died' });
  });

  test('the reference is clean only when every check passed and the CLI exited 0', () => {
    const plan = planReference();
    const report = { results: [{ id: 'TOK-01', state: 'passed' as const }], harnessErrors: [] };
    expect(judgeReference({ plan, report, exitCode: 0, durationMs: 1 }).clean).toBe(true);
    expect(judgeReference({ plan, report: { ...report, results: [{ id: 'TOK-01', state: 'skipped' }] }, exitCode: 0, durationMs: 1 }).clean).toBe(false);
    expect(judgeReference({ plan, report, exitCode: 1, durationMs: 1 }).clean).toBe(false);
  });

  test('the score counts requirements in the breaks of caught faults only, by level', () => {
    const caught = judgeFault(fakeFault(['TOK-09']), run(fakeFault(['TOK-09']), { 'TOK-09': 'failed' }));
    const missed = judgeFault(fakeFault(['TOK-10']), run(fakeFault(['TOK-10']), { 'TOK-10': 'passed' }));
    const score = scoreOf([caught, missed]);
    expect(score).toMatchObject({ faultsRun: 2, faultsCaught: 1, faultsVerified: 1 });
    expect(score.requirements.covered).toBe(1);
    expect(score.byLevel.MUST.uncovered).toContain('TOK-10');
    expect(score.byLevel.MUST.uncovered).not.toContain('TOK-09');
    expect(score.byLevel.INFO.covered).toBe(0);
  });
});

describe('rendering', () => {
  test('compactIds shortens runs of three or more consecutive IDs', () => {
    expect(compactIds(['TOK-02', 'TOK-03', 'TOK-04', 'TOK-24'])).toBe('TOK-02…04, TOK-24');
    expect(compactIds(['WH-HMAC-05', 'WH-HMAC-06'])).toBe('WH-HMAC-05, WH-HMAC-06');
    expect(compactIds(['WH-11', 'WH-12', 'WH-13', 'WH-HMAC-14'])).toBe('WH-11…13, WH-HMAC-14');
  });

  test('the score table states totals and marks unproven requirements', () => {
    const fault = fakeFault(['TOK-09']);
    const outcome = judgeFault(fault, run(fault, { 'TOK-09': 'failed' }));
    const table = renderScoreTable({ seed: 's', concurrency: 1, faults: [outcome], score: scoreOf([outcome]), durationMs: 1 });
    expect(table).toContain('| Faults caught | 1 / 1 (100 %) |');
    expect(table).toContain('| TOK-09 | MUST | `fake-fault` |');
    expect(table).toContain('| TOK-10 | MUST | **unproven** |');
    expect(table).toContain('(INFO: never fails)');
  });

  test('the fault list replaces exactly the text between its markers', () => {
    const document = `intro\n${FAULT_LIST_BEGIN}\nold list\n${FAULT_LIST_END}\noutro\n`;
    const list = renderFaultList(listFaults());
    const updated = replaceFaultList(document, list);
    expect(updated.startsWith(`intro\n${FAULT_LIST_BEGIN}\n`)).toBe(true);
    expect(updated.endsWith(`${FAULT_LIST_END}\noutro\n`)).toBe(true);
    expect(updated).not.toContain('old list');
    expect(updated).toContain('`hmac-decoded-key`');
    expect(() => replaceFaultList('no markers', list)).toThrow();
  });
});
