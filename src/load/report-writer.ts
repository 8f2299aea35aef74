/**
 * Writes a built load report (report.ts, pure) as JSON and as its HTML page. Each file is written on its
 * own (output-file.ts): one that cannot be written (a full disk, a folder of that name, no permission, a
 * FIFO nobody reads, a hung file system) is a failure naming `--out`, and the other is still written.
 */
import { join } from 'node:path';
import type { HarnessError } from '../errors.js';
import { makeDirs, writeOutputFile } from '../output-file.js';
import { renderHtmlReport } from './report-html.js';
import type { LoadReport } from './report.js';

export interface WrittenReport {
  /** The files written (absent: not written, and `failures` says why). */
  json?: string;
  html?: string;
  /** The outputs that could not be written (OUTPUT_UNWRITABLE); the command exits 2 when any. */
  failures: HarnessError[];
}

/** Writes `load-<scenario>.json` and `.html` into `dir` (created if missing). */
export async function writeReport(report: LoadReport, dir: string, flag = '--out'): Promise<WrittenReport> {
  const written: WrittenReport = { failures: [] };
  try {
    makeDirs(dir, flag);
  } catch (error) {
    written.failures.push(error as HarnessError);
    return written;
  }
  const base = join(dir, `load-${report.scenario}`);
  // NaN (no data) is not JSON: write null.
  const files: Array<['json' | 'html', () => string]> = [
    ['json', () => `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`],
    ['html', () => renderHtmlReport(report)],
  ];
  for (const [kind, render] of files) {
    const path = `${base}.${kind}`;
    try {
      await writeOutputFile(path, render(), flag);
      written[kind] = path;
    } catch (error) {
      written.failures.push(error as HarnessError);
    }
  }
  return written;
}
