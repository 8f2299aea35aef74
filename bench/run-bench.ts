/**
 * `npm run bench [-- name...]`: runs the registered benchmarks, prints their metrics and writes
 * reports/bench/<name>.json, and each bench's metrics into bench/figures.json (committed: the figures the
 * docs quote come from it, and tests/docs/counts.test.ts holds every quoted one to it). Register a bench
 * by importing it here and appending it to BENCHES.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bench } from './registry.js';
import { referenceBench } from './reference-bench.js';
import { referenceMemoryBench } from './reference-memory-bench.js';
import { keyExportBench } from './key-export-stall.js';
import { runWallBench } from './run-wall.js';
import { stateBench } from './state-bench.js';
import { stateCrashBench } from './state-crash.js';
import { openapiDescriptionBench } from './openapi-description.js';
import { packageSizeBench } from './package-size.js';
import { measuredHere, readFigures, withFigures, withParts, writeFigures } from './figures.js';
import { speedBench } from './speed-bench.js';
import { linearCostsBench } from './linear-costs.js';
import { inspectorObserveBench } from './inspector-observe.js';
import { sandboxDiagnosesBench } from './sandbox-diagnoses.js';
import { hotPathBench } from './hot-path-bench.js';

// ---- registered benchmarks: append new ones here -------------------------------------------------------
const BENCHES: Bench[] = [referenceBench, referenceMemoryBench, runWallBench, keyExportBench, stateBench, openapiDescriptionBench, packageSizeBench, speedBench, linearCostsBench, stateCrashBench, inspectorObserveBench, sandboxDiagnosesBench, hotPathBench];
// ---------------------------------------------------------------------------------------------------------

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHES.some((bench) => bench.name === name));
if (unknown.length > 0) {
  process.stderr.write(`unknown bench: ${unknown.join(', ')}; available: ${BENCHES.map((b) => b.name).join(', ')}\n`);
  process.exit(2);
}
const selected = wanted.length > 0 ? BENCHES.filter((bench) => wanted.includes(bench.name)) : BENCHES;
const outDir = join(process.cwd(), 'reports', 'bench');
mkdirSync(outDir, { recursive: true });
let failed = false;
for (const bench of selected) {
  process.stdout.write(`\n== ${bench.name}: ${bench.description}\n`);
  // The commit is read as the bench starts (what it measures); the machine's load as it ends.
  const { commit } = measuredHere();
  try {
    const ran = await bench.run();
    for (const report of Array.isArray(ran) ? ran : [ran]) {
      for (const metric of report.metrics) {
        process.stdout.write(`  ${metric.label.padEnd(40)} ${String(metric.value).padStart(10)} ${metric.unit}\n`);
      }
      for (const note of report.notes) process.stdout.write(`  - ${note}\n`);
      const at = new Date().toISOString();
      writeFileSync(join(outDir, `${report.name}.json`), `${JSON.stringify({ ...report, at }, null, 2)}\n`);
      // Read again for each report: a long bench may overlap another writer's; only this report's entry changes.
      writeFigures(withParts(withFigures(readFigures(), report, at, { ...measuredHere(report.notes), ...(commit ? { commit } : {}) }), bench));
    }
  } catch (error) {
    failed = true;
    process.stderr.write(`  bench ${bench.name} failed: ${(error as Error).stack ?? String(error)}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
