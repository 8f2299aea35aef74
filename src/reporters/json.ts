/** `--reporter json`: writes <out>/report.json (docs/report-json.md). */
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { toJsonReport } from './json-report.js';

export const JSON_REPORT_FILE = 'report.json';

export class JsonReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    await writeReportFile(this.ctx, JSON_REPORT_FILE, toJsonReport(summary), (report) => `${JSON.stringify(report, null, 2)}\n`);
  }
}
