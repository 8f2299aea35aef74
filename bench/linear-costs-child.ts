/**
 * Child of bench/linear-costs.ts: `node linear-costs-child.js <package root> <operations>` times, in the
 * build at that root, the two costs issue 40 found growing with the square of the operations, and prints
 * one JSON line: the redactor with one token registered per operation (OPS-02) and a 4 KB page redacted
 * five times after each, and the control gate holding OPS-01/02/13 of every operation until its OPS-18.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [root, count] = [process.argv[2]!, Number(process.argv[3])];
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;
const { Redactor } = await load<{ Redactor: new (secrets: string[]) => { addFixed(s: string): boolean; redact(t: string): string } }>('dist/src/client/redact.js');
const { ControlGate } = await load<{ ControlGate: new (inRun: Set<string>) => { arrive(r: unknown): unknown[] } }>('dist/src/engine/controls.js');

const page = JSON.stringify({ list: Array.from({ length: 30 }, (_, i) => ({ id: `app-${i}`, displayName: `Display name number ${i} of the apps` })), nextPageToken: 'abc' });
let started = performance.now();
const redactor = new Redactor([]);
for (let i = 0; i < count; i += 1) {
  redactor.addFixed(`c1at_${String(i).padStart(8, '0')}_${Buffer.from(`token ${i}`).toString('base64url')}`);
  for (let k = 0; k < 5; k += 1) redactor.redact(page);
}
const redactMs = performance.now() - started;

const ops = Array.from({ length: count }, (_, i) => ({ method: 'GET', path: `/api/v1/g${i}/apps` }));
const keys = new Set(ops.flatMap((op) => ['OPS-01', 'OPS-02', 'OPS-13', 'OPS-18'].map((id) => `${id}@GET ${op.path}`)));
const result = (id: string, operation: { method: string; path: string }): unknown => ({ id, level: 'MUST', group: 'operations', section: '5.1', text: '', state: 'passed', observations: [], exchanges: [], durationMs: 1, phase: 'main', operation });
started = performance.now();
const gate = new ControlGate(keys);
let released = 0;
for (const op of ops) for (const id of ['OPS-01', 'OPS-02', 'OPS-13']) released += gate.arrive(result(id, op)).length;
for (const op of ops) released += gate.arrive(result('OPS-18', op)).length;
const gateMs = performance.now() - started;
process.stdout.write(`${JSON.stringify({ operations: count, redactMs: Math.round(redactMs), gateMs: Math.round(gateMs), released })}\n`);
