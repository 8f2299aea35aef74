/**
 * `npm run docs`: writes every generated part of the documentation (see generated-docs.ts). The mutation
 * score needs a verification of every fault: by default this runs it (minutes; the same as the
 * self-verification test), or `--from reports/verification.json` reuses the result a full `npm test` left.
 * Totals stated in prose anywhere in README.md and docs/ are rewritten too (doc-counts.ts).
 * `--check` writes nothing and exits 1 when a file is stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { packageRoot } from '../src/package.js';
import { listFaults } from '../src/faults/index.js';
import { verifyFaults, type VerificationResult } from '../src/mutation/verify.js';
import { allSubjects } from '../src/mutation/verify-variants.js';
import { faultProcesses } from '../src/defaults.js';
import {
  README_SECTIONS,
  SECTIONS_DOC,
  VERIFICATION_RESULT,
  VERIFICATION_SEED,
  expectedFaultsDoc,
  expectedSandboxDoc,
  expectedReadmeSection,
  expectedScoreDoc,
  readDoc,
  withReadmeSection,
} from './generated-docs.js';
import { BENCHMARKS_DOC, FIGURES_SECTION, renderFiguresSection } from './benchmarks-doc.js';
import { benchFigures, countedDocs, withCurrentCounts } from './doc-counts.js';

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run docs [-- --from ${VERIFICATION_RESULT}] [--check]\n`);
  process.exit(2);
}

function parseArgs(argv: readonly string[]): { from?: string; check: boolean } {
  let from: string | undefined;
  let check = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--check') check = true;
    else if (arg === '--from') from = argv[++i] ?? usage('--from needs a file');
    else if (arg.startsWith('--from=')) from = arg.slice('--from='.length);
    else usage(`unknown argument ${arg}`);
  }
  return { ...(from === undefined ? {} : { from }), check };
}

/** A result the docs may show: every registered fault ran (a subset would understate coverage). */
function assertComplete(result: VerificationResult, source: string): void {
  const ran = new Set(result.faults.map((fault) => fault.name));
  for (const variant of result.variants ?? []) ran.add(variant.name);
  const missing = [...listFaults().map((fault) => fault.name), ...allSubjects().map((subject) => subject.name)].filter((name) => !ran.has(name));
  if (missing.length > 0 || !result.reference) {
    usage(`${source} is not a verification of every fault and variant (missing: ${missing.slice(0, 5).join(', ') || 'the reference run'}${missing.length > 5 ? ', …' : ''})`);
  }
}

async function verificationResult(root: string, from: string | undefined): Promise<VerificationResult> {
  if (from !== undefined) {
    const path = resolve(from);
    let result: VerificationResult;
    try {
      result = JSON.parse(readFileSync(path, 'utf8')) as VerificationResult;
    } catch (error) {
      return usage(`cannot read ${path}: ${(error as Error).message}`);
    }
    assertComplete(result, path);
    return result;
  }
  process.stdout.write(`running the self-verification of ${listFaults().length} faults (a few minutes)…\n`);
  const result = await verifyFaults({ seed: VERIFICATION_SEED, concurrency: faultProcesses() });
  const out = join(root, VERIFICATION_RESULT);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

const { from, check } = parseArgs(process.argv.slice(2));
const root = packageRoot();
const result = await verificationResult(root, from);

const scoreDoc = expectedScoreDoc(result, readDoc(root, 'docs/mutation-score.md'));
let sections = readDoc(root, SECTIONS_DOC);
for (const name of README_SECTIONS) sections = withReadmeSection(sections, name, expectedReadmeSection(name, scoreDoc));
const generated = new Map<string, string>([
  // BENCHMARKS.md's figures, from bench/figures.json (scripts/benchmarks-doc.ts).
  [BENCHMARKS_DOC, withReadmeSection(readDoc(root, BENCHMARKS_DOC), FIGURES_SECTION, renderFiguresSection(benchFigures(root)))],
  ['docs/mutation-score.md', scoreDoc],
  ['docs/faults.md', expectedFaultsDoc(readDoc(root, 'docs/faults.md'))],
  ['docs/sandbox.md', expectedSandboxDoc(readDoc(root, 'docs/sandbox.md'))],
  [SECTIONS_DOC, sections],
]);
// Every total stated in prose, made current (scripts/doc-counts.ts), on top of the generated parts.
for (const relative of countedDocs(root)) generated.set(relative, withCurrentCounts(generated.get(relative) ?? readDoc(root, relative)));
const files = [...generated.entries()];

let stale = 0;
for (const [relative, text] of files) {
  if (readDoc(root, relative) === text) {
    process.stdout.write(`  ${relative}: current\n`);
    continue;
  }
  stale += 1;
  if (check) {
    process.stdout.write(`  ${relative}: STALE\n`);
  } else {
    writeFileSync(join(root, relative), text);
    process.stdout.write(`  ${relative}: written\n`);
  }
}
const unverified = result.faults.filter((fault) => !fault.verified).map((fault) => fault.name);
if (unverified.length > 0) process.stderr.write(`warning: ${unverified.length} faults not verified: ${unverified.join(', ')}\n`);
process.exitCode = check && stale > 0 ? 1 : 0;
