/**
 * `npm run fault -- <name|area> [...]`: the self-verification of some faults, legitimate variants or stacks
 * only, as the self-verification test judges them (only the suite groups each one's declarations touch,
 * plus the smoke checks; a stack the whole catalogue), without the clean reference run. Prints each one's
 * verdict and what did not match its declaration; exits 0 when every one is verified, 1 otherwise, 2 on an
 * unknown name.
 */
import { listFaults } from '../src/faults/index.js';
import { verifyFaults, type FaultOutcome } from '../src/mutation/verify.js';
import { subjectsNamed, variantProblems } from '../src/mutation/verify-variants.js';
import { VERIFICATION_SEED } from './generated-docs.js';
import { faultProcesses } from '../src/defaults.js';

function lines(outcome: FaultOutcome): string[] {
  const out: string[] = [];
  for (const note of outcome.missing) out.push(`declared ${note.id} did not fail (${note.state}${note.message ? `: ${note.message}` : ''})`);
  for (const note of outcome.unexplained) out.push(`unexplained ${note.state} ${note.id}${note.message ? `: ${note.message}` : ''}`);
  for (const id of outcome.stale) out.push(`explains ${id}, which passed`);
  if (outcome.error) out.push(outcome.error.split('\n')[0]!);
  return out;
}

const wanted = process.argv.slice(2);
const all = listFaults();
const faults = all.filter((fault) => wanted.includes(fault.name) || wanted.includes(fault.area));
const subjects = subjectsNamed(wanted);
const unknown = wanted.filter((name) => !all.some((fault) => fault.name === name || fault.area === name) && !subjects.some((subject) => subject.name === name));
if (wanted.length === 0 || unknown.length > 0) {
  process.stderr.write(`${unknown.length > 0 ? `unknown fault, area, variant or stack: ${unknown.join(', ')}\n` : ''}usage: npm run fault -- <fault, area, variant or stack> [...]\n`);
  process.exit(2);
}
const result = await verifyFaults({
  seed: process.env.AC_FAULTS_SEED ?? VERIFICATION_SEED,
  concurrency: faultProcesses(),
  faults,
  variants: subjects,
  reference: false,
});
for (const outcome of result.faults) {
  const verdict = outcome.verified ? 'verified' : outcome.caught ? 'caught, NOT verified' : 'NOT caught';
  process.stdout.write(`${outcome.name}: ${verdict} (${outcome.caughtBreaks.length}/${outcome.breaks.length} declared breaks failed, ${outcome.selected} checks, ${(outcome.durationMs / 1000).toFixed(1)} s)\n`);
  for (const line of lines(outcome)) process.stdout.write(`  ${line}\n`);
}
for (const outcome of result.variants ?? []) {
  const verdict = outcome.verified ? 'verified' : outcome.passesDefault ? 'passes the default run, warnings NOT as declared' : 'FAILS the default run';
  process.stdout.write(`${outcome.kind} ${outcome.name}: ${verdict} (${outcome.warned.length}/${outcome.warns.length} declared warnings, ${outcome.mustFailures.length} MUST failed, ${outcome.selected} checks, ${(outcome.durationMs / 1000).toFixed(1)} s)\n`);
  for (const line of variantProblems(outcome)) process.stdout.write(`  ${line}\n`);
}
const verified = result.score.faultsVerified + (result.variants ?? []).filter((outcome) => outcome.verified).length;
const total = result.score.faultsRun + (result.variants ?? []).length;
process.stdout.write(`${verified}/${total} verified in ${(result.durationMs / 1000).toFixed(1)} s\n`);
process.exitCode = verified === total ? 0 : 1;
