/** `--reporter json`: writes <out>/report.json (docs/report-json.md). */
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { resultKey } from '../engine/result-key.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { reportAttestation, toJsonReport, type JsonReport } from './json-report.js';
import { rerunFor } from './rerun.js';
import { reproductionsFor } from './reproductions.js';
import { JSON_REPORT_FILE } from './file-names.js';


export class JsonReporter implements EngineReporter {
  /** Shows the exchanges of failed, errored and blocked checks only. */
  readonly readsPassedExchanges = false;
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const reproductions = await reproductionsFor(summary, this.ctx);
    const report = toJsonReport(summary);
    // Each failed or errored check carries its rerun line (reporters/rerun.ts), after its phase.
    const withRerun: JsonReport = {
      ...report,
      results: report.results.map((result) => {
        const rerun = result.state === 'failed' || result.state === 'errored' ? rerunFor(this.ctx.invocation, summary.header, resultKey(result)) : undefined;
        const found = reproductions.get(resultKey(result));
        if (rerun === undefined && found === undefined) return result;
        const reproduction = found === undefined ? undefined : 'command' in found ? { command: found.command, file: found.file } : { unavailable: found.unavailable };
        const { exchanges, ...rest } = result;
        return { ...rest, ...(rerun === undefined ? {} : { rerun }), ...(reproduction === undefined ? {} : { reproduction }), exchanges };
      }),
      ...(this.ctx.attestSubject === undefined ? {} : { attestation: reportAttestation(this.ctx.attestSubject, summary.header) }),
    };
    await writeReportFile(this.ctx, JSON_REPORT_FILE, withRerun, (value) => `${JSON.stringify(value, null, 2)}\n`);
  }
}
