/**
 * Parts of the Markdown summary kept apart from its layout (markdown.ts): catalogue sentences with their
 * code spans rendered as code, and the failed-checks table with errored checks collapsed by error code (an
 * unreachable target errs every check the same way: one row, not 281).
 */
import type { CheckResult } from '../engine/types.js';
import { mdCode, mdText } from '../escape.js';
import { displayState, type DisplayState } from './format.js';

/**
 * A catalogue sentence: its `code` spans stay code spans (rendered by mdCode, so a span cannot break out),
 * everything else escaped by mdText. The catalogue is ours, but the text went through redaction like any.
 */
export function mdCatalogueText(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part) => (/^`[^`\n]+`$/.test(part) ? mdCode(part.slice(1, -1)) : part === '' ? '' : mdText(part)))
    .join('');
}

/** One row of the failed-checks table, before rendering: a check, or every errored check sharing a code. */
export type FailedRow = { kind: 'check'; result: CheckResult; state: DisplayState } | { kind: 'errors'; code: string; results: CheckResult[] };

/** The rows in the order given, errored checks folded into one row per error code where the first of them stood. */
export function failedRows(bad: readonly CheckResult[], strict: boolean): FailedRow[] {
  const rows: FailedRow[] = [];
  const byCode = new Map<string, { kind: 'errors'; code: string; results: CheckResult[] }>();
  for (const result of bad) {
    const state = displayState(result, strict);
    if (state !== 'errored') {
      rows.push({ kind: 'check', result, state });
      continue;
    }
    const code = result.harnessError?.code ?? 'INTERNAL';
    const row = byCode.get(code);
    if (row) row.results.push(result);
    else {
      const fresh = { kind: 'errors' as const, code, results: [result] };
      byCode.set(code, fresh);
      rows.push(fresh);
    }
  }
  return rows;
}
