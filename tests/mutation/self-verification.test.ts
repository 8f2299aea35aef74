/**
 * Self-verification: the suites pass the clean reference and catch every fault, each fault making exactly
 * the checks fail that it declares; every legitimate variant and stack (src/variants) passes the default run
 * and fails exactly the SHOULD checks it warns on. When every fault ran, the result goes to reports/verification.json and
 * docs/mutation-score.md must match it (`npm run docs -- --from reports/verification.json` writes it; this
 * test never does). Needs the build (npm test builds first): the reference runs through
 * bin/access-conformance.js and the faults in worker processes from dist/. AC_FAULTS_ONLY=name,area,…
 * runs some faults only (`npm run fault -- <name>` runs one).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { VERIFICATION_RESULT, VERIFICATION_SEED, expectedScoreDoc, readDoc, staleMessage } from '../../scripts/generated-docs.js';
import { packageRoot } from '../../src/package.js';
import { getFault, listFaults } from '../../src/faults/index.js';
import { verifyFaults, type FaultOutcome, type VerificationResult } from '../../src/mutation/verify.js';
import { faultProcesses } from '../../src/defaults.js';
import { allSubjects, subjectsNamed, variantProblems } from '../../src/mutation/verify-variants.js';

const SEED = VERIFICATION_SEED;
const CONCURRENCY = faultProcesses();
const ONLY = (process.env.AC_FAULTS_ONLY ?? '').split(',').map((part) => part.trim()).filter(Boolean);

function selectedFaults() {
  const all = listFaults();
  return ONLY.length === 0 ? all : all.filter((fault) => ONLY.includes(fault.name) || ONLY.includes(fault.area));
}

function problems(outcome: FaultOutcome): string[] {
  const lines: string[] = [];
  for (const note of outcome.missing) lines.push(`${outcome.name}: declared ${note.id} did not fail (${note.state}${note.message ? `: ${note.message}` : ''})`);
  for (const note of outcome.unexplained) lines.push(`${outcome.name}: unexplained ${note.state} ${note.id}${note.message ? `: ${note.message}` : ''}`);
  for (const id of outcome.stale) lines.push(`${outcome.name}: explains ${id}, which passed`);
  if (outcome.error) lines.push(`${outcome.name}: ${outcome.error.split('\n')[0]}`);
  return lines;
}

function summary(result: VerificationResult): string {
  const { score } = result;
  const level = (name: 'MUST' | 'SHOULD') => `${score.byLevel[name].covered}/${score.byLevel[name].total}`;
  return [
    `mutation score: ${score.faultsCaught}/${score.faultsRun} faults caught, ${score.faultsVerified} verified`,
    `requirements covered: ${score.requirements.covered}/${score.requirements.total} (MUST ${level('MUST')}, SHOULD ${level('SHOULD')}, INFO ${score.byLevel.INFO.total} never fail)`,
    ONLY.length === 0
      ? `unproven MUST/SHOULD: ${[...score.byLevel.MUST.uncovered, ...score.byLevel.SHOULD.uncovered].join(', ') || 'none'}`
      : `(AC_FAULTS_ONLY=${ONLY.join(',')}: coverage counts only the faults run)`,
    result.reference ? `reference: ${result.reference.passed}/${result.reference.selected} passed` : 'reference: not run',
    `took ${(result.durationMs / 1000).toFixed(0)} s with ${result.concurrency} worker processes`,
  ].join('\n');
}

describe('self-verification', () => {
  test('the reference passes every check and every fault fails exactly its declared checks', async () => {
    const faults = selectedFaults();
    const variants = ONLY.length === 0 ? allSubjects() : subjectsNamed(ONLY);
    expect(faults.length + variants.length).toBeGreaterThan(0);
    const result = await verifyFaults({ seed: SEED, concurrency: CONCURRENCY, faults, variants });
    console.log(summary(result));

    if (ONLY.length === 0) {
      const out = join(packageRoot(), VERIFICATION_RESULT);
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
    }

    expect(result.reference?.notPassed ?? [], 'checks that did not pass against the clean reference').toEqual([]);
    expect(result.reference?.clean, result.reference?.error ?? 'the reference run was not clean').toBe(true);
    expect(result.faults.flatMap(problems), 'faults not verified').toEqual([]);
    expect(result.score.faultsCaught).toBe(result.score.faultsRun);
    // Legitimate variants: each passes the default run and, with --strict, fails exactly its warnings;
    // each stack (its variants combined) does so on the whole catalogue.
    expect((result.variants ?? []).flatMap((outcome) => variantProblems(outcome).map((line) => `${outcome.name}: ${line}`)), 'variants not verified').toEqual([]);
    if (ONLY.length === 0) {
      expect((result.variants ?? []).filter((outcome) => outcome.kind === 'stack').length, 'stacks verified').toBeGreaterThanOrEqual(3);
      expect(result.score.byLevel.MUST.uncovered, 'MUST requirements no fault breaks').toEqual([]);
      expect(result.score.byLevel.SHOULD.uncovered, 'SHOULD requirements no fault breaks').toEqual([]);
      const scoreDoc = readDoc(packageRoot(), 'docs/mutation-score.md');
      expect(scoreDoc, staleMessage('docs/mutation-score.md', true)).toBe(expectedScoreDoc(result, scoreDoc));
    }
  }, 25 * 60_000);

  test('run --fault through the CLI fails exactly the declared checks too', async () => {
    const fault = getFault('hmac-decoded-key')!;
    const result = await verifyFaults({ seed: SEED, concurrency: 1, faults: [fault], mode: 'cli', reference: false });
    const [outcome] = result.faults;
    expect(outcome!.caught).toBe(true);
    expect(problems(outcome!)).toEqual([]);
  }, 5 * 60_000);
});
