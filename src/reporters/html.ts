/**
 * `--reporter html`: <out>/report.html, one self-contained file (inline CSS and JS, no external assets),
 * rendered here with every text escaped: the markup holds no report data a script could turn into HTML.
 * Checks are listed in reading order (failures, errors, SHOULD warnings in their own colour and word,
 * then the rest), each with an anchor (`report.html#WH-JWT-06`), its exchanges and, when it failed, a curl
 * command that repeats the request. The filter shows how many checks are in each state.
 */
import type { RecordedExchange } from '../client/types.js';
import { resultKey, sentPathLine } from '../engine/result-key.js';
import type { AbsentOperations, CheckResult, EngineReporter, RunScope, RunSummary } from '../engine/types.js';
import { describeAuthority } from '../requirements/catalogue.js';
import { writeReportFile, type ReporterContext } from './context.js';
import { reproductionLines, reproductionsFor, type Reproduction } from './reproductions.js';
import { capText, escapeMarkup, moreBytesNote, oneLine, shortText } from '../escape.js';
import { rerunFor, type RunInvocation } from './rerun.js';
import { abortedBanner, DISPLAY_ORDER, DISPLAY_TOTAL, displayState, finalLine, formatDuration, formatExchange, inDisplayOrder, type DisplayState } from './format.js';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.js';
import { absentDetailLines, absentView, notImplementedLine, scopeLine, acceptedInsteadLine, blockedReason, causeView, dependantLine, dependantsOf, dependsOnIt, pulledInLine, rootCausesFirst, uniformAnswerLines, type CauseView } from './root-cause-order.js';
import { HTML_REPORT_FILE } from './file-names.js';


const e = escapeMarkup;

/** The word shown for each state: a SHOULD failure without --strict is a WARNING, never FAILED. */
export const STATE_LABEL: Record<DisplayState, string> = {
  failed: 'failed',
  errored: 'error',
  blocked: 'blocked',
  warning: 'warning',
  observation: 'info',
  expected: 'expected',
  passed: 'passed',
  skipped: 'skipped',
};

/** Target text in a block: at most 4 KB, then how much more there was. */
function capped(text: string): string {
  const cut = capText(text, 4096);
  return cut.moreBytes > 0 ? `${cut.text}\n${moreBytesNote(cut.moreBytes)}` : cut.text;
}

function exchangeBlock(exchange: RecordedExchange, index: number): string {
  const outcome = exchange.response ? ` → ${exchange.response.status}` : exchange.error ? ` → ${exchange.error.code}` : '';
  const title = `exchange ${index + 1}: ${exchange.request.method} ${exchange.request.url}${outcome} (${formatDuration(exchange.durationMs)})`;
  return `<details class="exchange"><summary>${e(title)}</summary><pre>${e(formatExchange(exchange, '', { prefix: '' }).join('\n'))}</pre></details>`;
}

/**
 * A dependant's link back to its root cause. A root cause's own line (how many depend on it, the rule the
 * target applies instead) is in its summary, visible open or closed: not repeated here.
 */
function rootLink(result: CheckResult, view: CauseView): string {
  const root = view.rootOf.get(resultKey(result));
  return root ? `<p>Follows from the root cause <a href="#${e(encodeURIComponent(root))}">${e(root)}</a>.</p>` : '';
}

/**
 * A root cause's dependants, collapsed behind their count and placed after the rerun, reproduce and
 * exchange sections: a list of a hundred lines must not push what the reader acts on out of sight.
 */
function dependantsBlock(result: CheckResult, view: CauseView): string {
  const dependants = dependantsOf(view, resultKey(result));
  if (dependants.length === 0) return '';
  const items = dependants.map((d) => `<li><a href="#${e(encodeURIComponent(resultKey(d)))}">${e(resultKey(d))}</a> ${e(dependantLine(d).slice(resultKey(d).length + 1))}</li>`).join('');
  return `<details class="dependants"><summary>${e(dependsOnIt(dependants.length))}</summary><ul>${items}</ul></details>`;
}

/**
 * The dependants of a root cause, folded under it in the list: one closed block that says how many there
 * are and how they ended ("19 checks depend on WH-01: 13 failed, 6 blocked"), their rows inside.
 */
function foldedDependants(result: CheckResult, strict: boolean, view: CauseView, row: (result: CheckResult) => string): string {
  const dependants = dependantsOf(view, resultKey(result));
  if (dependants.length === 0) return '';
  // In the words of the filter boxes: a SHOULD failure without --strict is a warning here too.
  const states = new Map<DisplayState, number>();
  for (const d of dependants) states.set(displayState(d, strict), (states.get(displayState(d, strict)) ?? 0) + 1);
  const word = (state: DisplayState, n: number): string => (state === 'warning' && n !== 1 ? 'warnings' : state === 'errored' ? 'errored' : STATE_LABEL[state]);
  const how = DISPLAY_ORDER.filter((state) => states.has(state)).map((state) => `${states.get(state)} ${word(state, states.get(state)!)}`).join(', ');
  const title = `${dependsOnIt(dependants.length).replace(/ on it$/, '')} on ${resultKey(result)}: ${how}`;
  return `<details class="fold" data-root="${e(resultKey(result))}"><summary>${e(title)}</summary>\n${dependants.map(row).join('\n')}\n</details>`;
}

function checkBody(result: CheckResult, state: DisplayState, view: CauseView, rerun?: string, reproduction?: Reproduction): string {
  const pulled = pulledInLine(result);
  const parts: string[] = [pulled ? `<p>${e(`${pulled[0]!.toUpperCase()}${pulled.slice(1)}: --only/--skip did not name it, the run added it because a refusal proves something only if its control passes (ruling 30).`)}</p>` : '', rootLink(result, view)];
  if (result.state === 'blocked') parts.push(`<p>${e(blockedReason(result))}</p>`);
  parts.push(
    `<p>§${e(result.section)}${result.ruling ? `, ruling ${result.ruling}` : ''}, ${e(formatDuration(result.durationMs))}${result.phase === 'clock' ? ', clock phase' : ''}</p>`,
  );
  if (result.operation) parts.push(`<p class="sent">${e(sentPathLine(result.operation))}</p>`);
  if (result.authority) parts.push(`<p class="authority">Authority: ${e(describeAuthority(result.authority))}</p>`);
  if (state === 'warning') parts.push('<p>A SHOULD requirement: this fails the run only with --strict.</p>');
  if (state === 'expected') parts.push('<p>Expected failure: listed in the baseline.</p>');
  if (result.reason) parts.push(`<p>Skipped: ${e(result.reason)}</p>`);
  if (result.failure) {
    parts.push(`<p>${e(capped(result.failure.message))}</p>`);
    if (result.failure.expected || result.failure.actual) parts.push(`<pre>${e(`expected: ${capped(result.failure.expected)}\nactual:   ${capped(result.failure.actual)}`)}</pre>`);
  }
  if (result.harnessError) {
    const { code, message, hint } = result.harnessError;
    parts.push(`<p>error[${e(code)}]: ${e(capped(message))}${hint ? ` (hint: ${e(hint)})` : ''}</p>`);
  }
  for (const observation of result.observations) parts.push(`<p>note: ${e(capped(observation))}</p>`);
  const bad = result.state === 'failed' || result.state === 'errored';
  if (rerun && bad) parts.push(`<p>Rerun this check:</p><pre class="curl">${e(rerun)}</pre>`);
  if (bad) {
    for (const [label, text] of reproductionLines(result, reproduction)) parts.push(`<p>${e(label[0]!.toUpperCase() + label.slice(1))}:</p><pre class="curl">${e(text)}</pre>`);
  }
  result.exchanges.forEach((exchange, index) => parts.push(exchangeBlock(exchange, index)));
  parts.push(dependantsBlock(result, view));
  return parts.filter(Boolean).join('\n');
}

/** What a collapsed row shows under its sentence: expected and got, one short line (the body has them in full). */
function collapsedGotExpected(result: CheckResult): string {
  const failure = result.failure;
  if (!failure || (!failure.actual && !failure.expected)) return '';
  // Expected first: it is short, and a long answer cut by the row's width must not hide it.
  return `<span class="gotexp">expected ${e(shortText(oneLine(failure.expected || '—'), 160))} · got ${e(shortText(oneLine(failure.actual || '—'), 160))}</span>`;
}

function checkRow(result: CheckResult, strict: boolean, view: CauseView, rerun?: string, reproduction?: Reproduction): string {
  const state = displayState(result, strict);
  const dependants = dependantsOf(view, resultKey(result)).length;
  const hay = `${resultKey(result)} ${result.text} ${result.group} ${result.reason ?? ''} ${result.failure?.message ?? ''} ${result.harnessError?.message ?? ''}`.toLowerCase();
  return (
    `<details class="check s-${state}" id="${e(resultKey(result))}" data-state="${state}" data-level="${e(result.level)}" data-group="${e(result.group)}" data-hay="${e(hay)}">` +
    `<summary><span class="state">${STATE_LABEL[state]}</span><a class="id" href="#${e(encodeURIComponent(resultKey(result)))}">${e(resultKey(result))}</a>` +
    `<span class="level">${e(result.level)}</span><span class="group">${e(result.group)}</span><span class="text">${e(result.text)}</span>` +
    `${result.pulledIn ? `<span class="pulled">${e(pulledInLine(result)!)}</span>` : ''}` +
    `${dependants > 0 ? `<span class="deps">${e([dependsOnIt(dependants), acceptedInsteadLine(view, resultKey(result)) ?? ''].filter(Boolean).join('; '))}</span>` : ''}${collapsedGotExpected(result)}</summary>\n` +
    `<div class="body">\n${checkBody(result, state, view, rerun, reproduction)}\n</div></details>`
  );
}

/**
 * One root cause for the operations that answer a valid call with the same 404 or 501: the line, each
 * operation once, then their root rows (each with its dependants) folded in one closed block.
 */
function absentSection(group: AbsentOperations, view: CauseView, ordered: readonly CheckResult[], rows: (result: CheckResult) => string): string {
  const detail = absentDetailLines(group, view);
  const roots = new Set(group.roots);
  const inside = ordered.filter((result) => roots.has(resultKey(result)));
  return (
    `<section class="absent"><p class="banner">${e(group.message)}</p>${detail.about.map((line) => `<p>${e(line)}</p>`).join('')}` +
    `<ul>${detail.operations.map((line) => `<li>${e(line)}</li>`).join('')}</ul>` +
    `<details class="fold"><summary>${e(`the ${inside.length} root checks, each with what follows from it`)}</summary>\n${inside.map(rows).join('\n')}\n</details></section>`
  );
}

/** The scope the run certifies, under the verdict: the line, and each operation not implemented. */
function scopeNotes(scope: RunScope): string {
  const list = scope.notImplemented.map((entry) => `<li>${e(notImplementedLine(entry))}</li>`).join('');
  return `<p class="banner scope">${e(`Scope: ${scopeLine(scope)}; a certificate of these operations only.`)}</p>${list ? `<details class="notes"><summary>${scope.notImplemented.length} not implemented</summary><ul>${list}</ul></details>` : ''}`;
}

export function renderHtml(summary: RunSummary, invocation?: RunInvocation, reproductions: ReadonlyMap<string, Reproduction> = new Map()): string {
  const { header, totals, verdict } = summary;
  const strict = header.strict;
  // Root cause first: each root cause, then the checks that follow from it, then the rest.
  const view = causeView(summary);
  const ordered = rootCausesFirst(inDisplayOrder(summary.results, strict), view);
  // The list shows root causes and the checks that follow from nothing; a root cause's dependants are
  // folded right under it, so 19 checks that fail for one reason do not read as 19 failures.
  // Operations that answer a valid call with the same 404 or 501: one block each, their root rows folded in it.
  const absent = absentView(summary);
  const listed = ordered.filter((result) => !view.rootOf.has(resultKey(result)) && !absent.grouped.has(resultKey(result)));
  const row = (result: CheckResult): string => checkRow(result, strict, view, rerunFor(invocation, header, resultKey(result)), reproductions.get(resultKey(result)));
  // The run's one set of counts (engine/counts.ts): a box per bucket.
  const counts = new Map<DisplayState, number>(Object.entries(DISPLAY_TOTAL).map(([state, bucket]) => [state as DisplayState, totals[bucket] ?? 0]));
  const stateBoxes = DISPLAY_ORDER.filter((state) => (counts.get(state) ?? 0) > 0 || ['failed', 'passed', 'skipped'].includes(state))
    .map((state) => `<label class="s-${state}"><input type="checkbox" data-state="${state}" checked> <span class="state s-${state}">${STATE_LABEL[state]}</span> (${counts.get(state) ?? 0})</label>`)
    .join('\n');
  const groups = [...new Set(summary.results.map((r) => r.group))].map((g) => `<option value="${e(g)}">${e(g)}</option>`).join('');
  const levelRows = (['MUST', 'SHOULD', 'INFO'] as const)
    .map((level) => {
      const t = totals.byLevel[level];
      return `<tr><td>${level}</td><td>${t.passed}</td><td>${t.failed}</td><td>${t.blocked}</td><td>${t.errored}</td><td>${t.skipped}</td></tr>`;
    })
    .join('');
  const banner = abortedBanner(summary);
  const pulled = header.selection.pulledIn ?? [];
  const selection = `${header.selection.selected} checks${header.selection.only.length ? ` --only ${header.selection.only.join(',')}` : ''}${header.selection.skip.length ? ` --skip ${header.selection.skip.join(',')}` : ''}${strict ? ' --strict' : ''}` +
    (pulled.length > 0 ? ` (pulled in as positive control${pulled.length === 1 ? '' : 's'}: ${pulled.map((check) => check.id).join(', ')})` : '');
  const meta: Array<[string, string]> = [
    ['target', `${header.target}${header.targetDescription ? ` (${header.targetDescription})` : ''}`],
    ['seed', header.seed],
    ['tool', `${header.tool.name} ${header.tool.version}, catalogue ${header.catalogueVersion}`],
    ['date', `${header.date} (${formatDuration(summary.durationMs)})`],
    ['selection', selection],
    ['hooks', `clock ${header.capabilities.clock ? 'yes' : 'no'}, runs ${header.capabilities.runs ? 'yes' : 'no'}`],
  ];
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
<p class="verdict ${e(verdict.status)}">${e(verdict.status)} (exit ${verdict.exitCode}): ${e(verdict.reason)} — ${e(finalLine(summary))}</p>
${summary.uniformAnswer ? `<p class="banner" role="alert">${uniformAnswerLines(summary).map((line) => e(line)).join('<br>')}</p>` : ''}
${banner ? `<p class="banner" role="alert">${e(banner)}</p>` : ''}
<p class="meta">${meta.map(([name, value]) => `<span>${name} <b>${e(value)}</b></span>`).join(' ')}</p>
${summary.scope ? scopeNotes(summary.scope) : ''}
${summary.clockMoved ? `<p class="notes clock">target clock: ${e(summary.clockMoved.note)}</p>` : ''}
${header.notes.length > 0 ? `<details class="notes"><summary>${header.notes.length} note${header.notes.length === 1 ? '' : 's'} on the run</summary>${header.notes.map((note) => `<p>note: ${e(note)}</p>`).join('')}</details>` : ''}
${summary.harnessErrors.map((error) => `<p class="notes">error[${e(error.code)}]: ${e(error.message)}</p>`).join('\n')}
${summary.baseline && summary.baseline.noLongerFailing.length > 0 ? `<p class="notes">Fixed (the baseline lists them and they pass now; remove them from it): ${e(summary.baseline.noLongerFailing.join(', '))}</p>` : ''}
<details><summary>state by level</summary><table class="totals"><tr><th>level</th><th>passed</th><th>failed</th><th>blocked</th><th>errored</th><th>skipped</th></tr>${levelRows}</table></details>
</header>
<nav class="filters">
${stateBoxes}
<select id="f-level"><option value="">every level</option><option>MUST</option><option>SHOULD</option><option>INFO</option></select>
<select id="f-group"><option value="">every group</option>${groups}</select>
<input id="f-text" type="search" placeholder="search ID, text, message">
<span id="f-count" class="count">${ordered.length} checks</span>
</nav>
<main id="checks">
${absent.groups.map((group) => absentSection(group, view, ordered, (result) => [row(result), foldedDependants(result, strict, view, row)].filter(Boolean).join('\n'))).join('\n')}
${listed.map((result) => [row(result), foldedDependants(result, strict, view, row)].filter(Boolean).join('\n')).join('\n')}
</main>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

export class HtmlReporter implements EngineReporter {
  /** Shows every check's exchanges, those that passed too. */
  readonly readsPassedExchanges = true;
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    const reproductions = await reproductionsFor(summary, this.ctx);
    await writeReportFile(this.ctx, HTML_REPORT_FILE, summary, (redacted) => renderHtml(redacted, this.ctx.invocation, reproductions));
  }
}
