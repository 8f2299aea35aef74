/**
 * The real description (../shared/openapi/conductorone-2025-09.openapi.yaml, 1.07 MB, 203 operations):
 * what reading it costs a run and `list --openapi`. Each sample is a fresh Node process
 * (bench/openapi-description-child.ts: read, parse, classify with or without bundling the schemas, then
 * compile every called operation's schema as the suite thread does), so peak RSS is the whole process's.
 * Medians of SAMPLES, the largest peak RSS; plus `list --openapi FILE --format json` end to end (the built
 * CLI, wall clock). Skipped, saying why, when ../shared/ is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median, type Bench, type BenchReport } from './registry.js';

const SAMPLES = Number(process.env.BENCH_OPENAPI_SAMPLES ?? 5);
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const DESCRIPTION = join(ROOT, '..', 'shared', 'openapi', 'conductorone-2025-09.openapi.yaml');

interface Sample {
  readMs: number;
  parseMs: number;
  classifyMs: number;
  compileMs: number;
  called: number;
  maxRssMb: number;
}

function sample(mode: 'run' | 'list'): Sample {
  const out = execFileSync(process.execPath, [join(HERE, 'openapi-description-child.js'), DESCRIPTION, mode], { encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').pop()!) as Sample;
}

const round = (value: number): number => Math.round(value * 10) / 10;

export const openapiDescriptionBench: Bench = {
  name: 'openapi-description',
  description: 'The real OpenAPI description: parse, classify, bundle and compile time, peak RSS, `list --openapi` wall time',
  async run(): Promise<BenchReport> {
    if (!existsSync(DESCRIPTION)) {
      return { name: 'openapi-description', metrics: [], notes: [`skipped: ${DESCRIPTION} is absent (../shared/ is not beside this checkout)`] };
    }
    const runs = Array.from({ length: SAMPLES }, () => sample('run'));
    const lists = Array.from({ length: SAMPLES }, () => sample('list'));
    const walls = Array.from({ length: SAMPLES }, () => {
      const start = performance.now();
      execFileSync(process.execPath, [join(ROOT, 'bin', 'access-conformance.js'), 'list', '--openapi', DESCRIPTION, '--format', 'json'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
      return performance.now() - start;
    });
    const med = (values: Sample[], key: keyof Sample): number => round(median(values.map((value) => value[key])));
    return {
      name: 'openapi-description',
      metrics: [
        { label: 'YAML parse (1.07 MB)', value: med(runs, 'parseMs'), unit: 'ms' },
        { label: 'classify 203 operations (list)', value: med(lists, 'classifyMs'), unit: 'ms' },
        { label: 'classify + bundle 53 schemas (run)', value: med(runs, 'classifyMs'), unit: 'ms' },
        { label: 'compile the called schemas (Ajv)', value: med(runs, 'compileMs'), unit: 'ms' },
        { label: 'peak RSS, run path (whole process)', value: round(Math.max(...runs.map((r) => r.maxRssMb))), unit: 'MB' },
        { label: 'peak RSS, list path (whole process)', value: round(Math.max(...lists.map((r) => r.maxRssMb))), unit: 'MB' },
        { label: 'list --openapi --format json (wall)', value: round(median(walls)), unit: 'ms' },
      ],
      notes: [
        `${SAMPLES} fresh processes per path (BENCH_OPENAPI_SAMPLES), medians; peak RSS is the largest maxRSS seen; ${runs[0]?.called ?? 0} operations compiled in the run path`,
        `Node ${process.version}, ${process.platform}/${process.arch}; the machine's load at the time is not controlled (see BENCHMARKS.md)`,
      ],
    };
  },
};
