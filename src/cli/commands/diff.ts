/**
 * `access-conformance diff A.json B.json`: what changed between two json reports (A before, B after).
 * Always exits 0 when both files are reports (a diff is information, not a verdict); 2 otherwise.
 */
import { diffReports, readJsonReport, type ReportDiff } from '../../reporters/index.js';
import type { DiffEntry } from '../../reporters/report-diff.js';
import { defineCommand } from '../command.js';

interface DiffArgs {
  a: string;
  b: string;
  format: 'text' | 'json';
}

function entryLine(entry: DiffEntry): string {
  const states = `${entry.before ?? '—'} → ${entry.after ?? '—'}`;
  return `  ${entry.id.padEnd(14)} ${entry.level.padEnd(6)} ${states.padEnd(22)} ${entry.text}${entry.detail ? `\n  ${''.padEnd(14)} ${''.padEnd(6)} ${entry.detail}` : ''}`;
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

export const diffCommand = defineCommand<DiffArgs>({
  command: 'diff <a> <b>',
  describe: 'Compare two json reports: what started failing, what started passing, what appeared or disappeared',
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'the earlier json report' })
      .positional('b', { type: 'string', demandOption: true, describe: 'the later json report' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text for people, json for scripts' })
      .example('$0 diff last-week/report.json reports/report.json', 'what changed since last week') as never,
  run: async (args) => {
    const [before, after] = await Promise.all([readJsonReport(args.a), readJsonReport(args.b)]);
    const diff = diffReports(before, after);
    process.stdout.write(args.format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : renderDiff(diff, args.a, args.b));
    return 0;
  },
});
