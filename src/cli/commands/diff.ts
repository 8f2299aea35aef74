/**
 * `access-conformance diff A.json B.json`: what changed between two json reports (A before, B after).
 * Exits 0 when both files are reports (a diff is information, not a verdict), 2 otherwise; with
 * `--fail-on regression` it exits 1 when something started failing (a CI gate against the last run).
 */
import { diffReports, readJsonReport, type ReportDiff } from '../../reporters/index.js';
import { oneLine } from '../../escape.js';
import { regressions, type DiffEntry } from '../../reporters/report-diff.js';
import { defineCommand, withExamples } from '../command.js';
import { choiceRow, type OptionRow } from '../option-grammar.js';

export const DIFF_OPTIONS = {
  format: choiceRow({ choices: ['text', 'json'], default: 'text', describe: 'text for people, json for scripts' }),
  'fail-on': choiceRow({
    choices: ['nothing', 'regression'],
    default: 'nothing',
    describe: 'regression: exit 1 when a check passing or skipped in A fails or errors in B, or a check new in B fails',
  }),
} as const satisfies Record<string, OptionRow<unknown>>;

/** `diff --help`'s examples (tests/cli/help-examples.test.ts reads every command's). */
export const DIFF_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['$0 diff main/report.json reports/report.json --fail-on regression', 'fail a pull request that breaks a check'],
  ['$0 diff last-week/report.json reports/report.json', 'what changed since last week'],
];

function entryLine(entry: DiffEntry): string {
  const states = `${entry.before ?? '—'} → ${entry.after ?? '—'}`;
  // Reports hold text from the target (failure details): shown with its control characters made visible.
  return `  ${oneLine(entry.id).padEnd(14)} ${oneLine(entry.level).padEnd(6)} ${states.padEnd(22)} ${oneLine(entry.text)}${entry.detail ? `\n  ${''.padEnd(14)} ${''.padEnd(6)} ${oneLine(entry.detail)}` : ''}`;
}

export function renderDiff(diff: ReportDiff, a: string, b: string): string {
  const lines = [`diff ${a} → ${b}`, ''];
  const sections: Array<[string, DiffEntry[]]> = [
    ['started failing', diff.startedFailing],
    ['started passing', diff.startedPassing],
    ['appeared (only in the second report)', diff.appeared],
    ['disappeared (only in the first report)', diff.disappeared],
    ['other changes', diff.otherChanges],
  ];
  for (const [title, entries] of sections) {
    if (entries.length === 0) continue;
    lines.push(`${title} (${entries.length})`, ...entries.map(entryLine), '');
  }
  lines.push(
    `${diff.startedFailing.length} started failing, ${diff.startedPassing.length} started passing, ${diff.appeared.length} appeared, ${diff.disappeared.length} disappeared, ${diff.unchanged} unchanged`,
  );
  return `${lines.join('\n')}\n`;
}

export const diffCommand = defineCommand({
  command: 'diff <a> <b>',
  describe: 'Compare two json reports: what started failing, what started passing, what appeared or disappeared',
  options: DIFF_OPTIONS,
  builder: (y, forHelp) =>
    withExamples(
      y
        .positional('a', { type: 'string', demandOption: true, describe: 'the earlier json report' })
        .positional('b', { type: 'string', demandOption: true, describe: 'the later json report' }),
      DIFF_EXAMPLES,
      forHelp,
    ),
  run: async (options, args) => {
    const a = String(args.a);
    const b = String(args.b);
    const [before, after] = await Promise.all([readJsonReport(a), readJsonReport(b)]);
    const diff = diffReports(before, after);
    process.stdout.write(options.format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : renderDiff(diff, a, b));
    if (options.failOn === 'regression') {
      const found = regressions(diff);
      if (found.length > 0) {
        process.stderr.write(`--fail-on regression: ${found.length} started failing: ${found.map((entry) => entry.id).join(', ')}\n`);
        return 1;
      }
    }
    return 0;
  },
});
