/**
 * One fresh process's cost of reading the real description (bench/openapi-description.ts starts one per
 * sample): read, parse, classify and bundle the called operations' schemas as a run does, then compile
 * every called operation's schema (what the suite thread pays once, at its first validateResponse); prints
 * one JSON line with the phases' milliseconds and the process's peak RSS.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { descriptionFacts, planOperations, validateResponse } from '../src/openapi/index.js';
import { parseDescriptionText } from '../src/openapi/parse.js';
import { describeOperations } from '../src/openapi/classify.js';

const [path, mode] = process.argv.slice(2) as [string, 'run' | 'list'];
const t0 = performance.now();
const text = readFileSync(path, 'utf8');
const t1 = performance.now();
const doc = parseDescriptionText(text, path);
const t2 = performance.now();
const operations = describeOperations(doc, { source: path, withSchemas: mode === 'run' });
const t3 = performance.now();
let compileMs = 0;
let called = 0;
if (mode === 'run') {
  const plan = planOperations({ description: { operations, facts: descriptionFacts(doc, path, operations) }, profile: { apps: { entitlements: { large: { appId: 'bench-app', count: 237 } } } } });
  called = plan.called.length;
  const c0 = performance.now();
  for (const op of plan.called) validateResponse(op, 200, { list: [], nextPageToken: '' });
  compileMs = performance.now() - c0;
}
process.stdout.write(`${JSON.stringify({
  readMs: t1 - t0,
  parseMs: t2 - t1,
  classifyMs: t3 - t2,
  compileMs,
  called,
  maxRssMb: process.resourceUsage().maxRSS / 1024,
})}\n`);
