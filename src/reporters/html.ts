/**
 * `--reporter html`: <out>/report.html, one self-contained file (inline CSS and JS, no external assets).
 * The data is the json report (with every check's exchanges), embedded as a JSON script block.
 */
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { finalLine, formatDuration } from './format.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';
import { escapeXml } from './junit.js';
import { toJsonReport } from './json-report.js';

export const HTML_REPORT_FILE = 'report.html';

/** JSON safe inside <script>: no `</script>`, no HTML comment openers, no line separators JS chokes on. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function renderHtml(summary: RunSummary): string {
  const { header, totals, verdict } = summary;
  // The page shows every check's exchanges, not only those of failures as report.json does.
  const data = { ...toJsonReport(summary), results: summary.results };
  const e = escapeXml;
  const levelRows = (['MUST', 'SHOULD', 'INFO'] as const)
    .map((level) => {
      const t = totals.byLevel[level];
      return `<tr><td>${level}</td><td>${t.passed}</td><td>${t.failed}</td><td>${t.skipped}</td><td>${t.errored}</td></tr>`;
    })
    .join('');
  const stateBoxes = (['failed', 'errored', 'passed', 'skipped'] as const)
    .map((state) => `<label><input type="checkbox" data-state="${state}" checked> ${state} (${totals[state]})</label>`)
    .join(' ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>access-conformance: ${e(header.profileName)} — ${e(verdict.status)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header>
<h1>access-conformance report: ${e(header.profileName)}</h1>
<dl class="meta">
<dt>target</dt><dd>${e(header.target)}${header.targetDescription ? ` (${e(header.targetDescription)})` : ''}</dd>
<dt>tool</dt><dd>${e(header.tool.name)} ${e(header.tool.version)}, catalogue ${e(header.catalogueVersion)}</dd>
<dt>seed</dt><dd>${e(header.seed)}</dd>
<dt>date</dt><dd>${e(header.date)} (${e(formatDuration(summary.durationMs))})</dd>
<dt>selection</dt><dd>${header.selection.selected} checks${header.selection.only.length ? ` --only ${e(header.selection.only.join(','))}` : ''}${header.selection.skip.length ? ` --skip ${e(header.selection.skip.join(','))}` : ''}${header.strict ? ' --strict' : ''}</dd>
<dt>hooks</dt><dd>clock ${header.capabilities.clock ? 'yes' : 'no'}, runs ${header.capabilities.runs ? 'yes' : 'no'}</dd>
</dl>
<p class="verdict ${e(verdict.status)}">${e(verdict.status)} (exit ${verdict.exitCode}): ${e(verdict.reason)} — ${e(finalLine(summary))}</p>
<table class="totals"><tr><th>level</th><th>passed</th><th>failed</th><th>skipped</th><th>errored</th></tr>${levelRows}</table>
${header.notes.map((note) => `<p>note: ${e(note)}</p>`).join('\n')}
${summary.harnessErrors.map((error) => `<p>error[${e(error.code)}]: ${e(error.message)}</p>`).join('\n')}
${summary.baseline && summary.baseline.noLongerFailing.length > 0 ? `<p>No longer failing, remove from the baseline: ${e(summary.baseline.noLongerFailing.join(', '))}</p>` : ''}
</header>
<div class="filters">
${stateBoxes}
<select id="f-level"><option value="">every level</option><option>MUST</option><option>SHOULD</option><option>INFO</option></select>
<select id="f-group"><option value="">every group</option></select>
<input id="f-text" type="search" placeholder="search ID, text, reason, message">
<span id="f-count" class="count"></span>
</div>
<main id="checks"></main>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

export class HtmlReporter implements EngineReporter {
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    await writeReportFile(this.ctx, HTML_REPORT_FILE, summary, renderHtml);
  }
}
