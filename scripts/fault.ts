/**
 * `npm run fault -- <name|area> [...]`: the self-verification of some faults only, as the
 * self-verification test judges them (only the suite groups each fault's declarations touch, plus the
 * smoke checks), without the clean reference run. Prints each fault's verdict and what did not match its
 * declaration; exits 0 when every one is verified, 1 otherwise, 2 on an unknown name.
 */
import { listFaults } from '../src/faults/index.js';
import { verifyFaults, type FaultOutcome } from '../src/mutation/verify.js';
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
const unknown = wanted.filter((name) => !all.some((fault) => fault.name === name || fault.area === name));
if (wanted.length === 0 || unknown.length > 0) {
  process.stderr.write(`${unknown.length > 0 ? `unknown fault or area: ${unknown.join(', ')}\n` : ''}usage: npm run fault -- <fault name or area> [...]\n`);
  process.exit(2);
}
const faults = all.filter((fault) => wanted.includes(fault.name) || wanted.includes(fault.area));
const result = await verifyFaults({
  seed: process.env.AC_FAULTS_SEED ?? VERIFICATION_SEED,
  concurrency: faultProcesses(),
  faults,
  reference: false,
});
for (const outcome of result.faults) {
  const verdict = outcome.verified ? 'verified' : outcome.caught ? 'caught, NOT verified' : 'NOT caught';
  process.stdout.write(`${outcome.name}: ${verdict} (${outcome.caughtBreaks.length}/${outcome.breaks.length} declared breaks failed, ${outcome.selected} checks, ${(outcome.durationMs / 1000).toFixed(1)} s)\n`);
  for (const line of lines(outcome)) process.stdout.write(`  ${line}\n`);
}
process.stdout.write(`${result.score.faultsVerified}/${result.score.faultsRun} verified in ${(result.durationMs / 1000).toFixed(1)} s\n`);
process.exitCode = result.score.faultsVerified === result.score.faultsRun ? 0 : 1;
