/** Writes a built load report (report.ts, pure) as JSON and as its HTML page. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtmlReport } from './report-html.js';
import type { LoadReport } from './report.js';

export interface WrittenReport {
  json: string;
  html: string;
}

/** Writes `load-<scenario>.json` and `.html` into `dir` (created if missing). */
export async function writeReport(report: LoadReport, dir: string): Promise<WrittenReport> {
  await mkdir(dir, { recursive: true });
  const base = join(dir, `load-${report.scenario}`);
  const json = `${base}.json`;
  const html = `${base}.html`;
  // NaN (no data) is not JSON: write null.
  await writeFile(json, `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`);
  await writeFile(html, renderHtmlReport(report));
  return { json, html };
}
