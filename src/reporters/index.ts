/**
 * The reporter table: `--reporter NAME` picks from it. They run in the table's order whatever the order
 * asked: file reporters first (the HAR of `--har` with them), then markdown, which names the files
 * written before it, then github's annotations; the console is always on and goes last, so that its
 * closing lines can list the files the others wrote and end with the line CI reads.
 */
import type { EngineReporter } from '../engine/types.js';
import { HarnessError } from '../errors.js';
import { ConsoleReporter } from './console.js';
import type { ReporterContext } from './context.js';
import { GithubReporter } from './github.js';
import { HarReporter } from './har.js';
import { HtmlReporter } from './html.js';
import { JsonReporter } from './json.js';
import { JunitReporter } from './junit.js';
import { MarkdownReporter } from './markdown.js';
import { REPORTER_NAMES, implicitReporters, isReporterName, type ReporterName } from './names.js';

export const REPORTERS = {
  console: ConsoleReporter,
  junit: JunitReporter,
  json: JsonReporter,
  html: HtmlReporter,
  markdown: MarkdownReporter,
  github: GithubReporter,
} as const satisfies Record<ReporterName, new (ctx: ReporterContext) => EngineReporter>;

export { REPORTER_NAMES, implicitReporters, isReporterName, type ReporterName };

/**
 * Builds the requested reporters (unknown name → USAGE) plus the implicit ones (`github` under GitHub
 * Actions), file reporters first and the console last.
 */
/**
 * The reporters a run asked for, the console last. `console: false` leaves it out: a run that stopped before
 * it had a target says why in one error line, and writes its files (engine/unstarted.ts).
 */
export function createReporters(names: readonly string[], ctx: ReporterContext, options: { console?: boolean } = {}): EngineReporter[] {
  const wanted = new Set<ReporterName>(implicitReporters(ctx.env));
  for (const name of names) {
    if (!isReporterName(name)) {
      throw new HarnessError('USAGE', `unknown reporter "${name}"; available: ${REPORTER_NAMES.join(', ')}`, { field: '--reporter' });
    }
    if (name !== 'console') wanted.add(name);
  }
  const files = REPORTER_NAMES.filter((name) => wanted.has(name) && name !== 'markdown' && name !== 'github').map((name) => new REPORTERS[name](ctx));
  const har = ctx.harPath === undefined ? [] : [new HarReporter(ctx)];
  const late = (['markdown', 'github'] as const).filter((name) => wanted.has(name)).map((name) => new REPORTERS[name](ctx));
  return [...files, ...har, ...late, ...(options.console === false ? [] : [new ConsoleReporter(ctx)])];
}

export { createRedact, createScrub, type AttestSubjectRequest, type ReporterContext, type ReporterOutput } from './context.js';
export { readJsonReport, toJsonReport, type JsonReport, type JsonCheckResult, REPORT_FORMAT, REPORT_FORMAT_VERSION } from './json-report.js';
export { diffReports, type ReportDiff } from './report-diff.js';
export { toHar, type Har } from './har.js';
