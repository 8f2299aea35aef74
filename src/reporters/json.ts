/** `--reporter json`: writes <out>/report.json (docs/report-json.md). */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { redactDeep, type ReporterContext } from './context.js';
import { toJsonReport } from './json-report.js';

export const JSON_REPORT_FILE = 'report.json';

export class JsonReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const report = redactDeep(toJsonReport(summary), this.ctx.redact);
    const path = join(this.ctx.outDir, JSON_REPORT_FILE);
    await mkdir(this.ctx.outDir, { recursive: true });
    await writeFile(path, `${this.ctx.scrub(JSON.stringify(report, null, 2))}\n`);
    this.ctx.artifacts.push(path);
  }
}
