/**
 * `serve --list-faults`: what `--fault` accepts, one line each: name, area, the requirements it breaks
 * and what the faulty service does. A table of lists, so that another kind of wrapper of the reference
 * (variants) is one more row: its flag, where its entries come from, how to serve one.
 */
import { listFaults } from '../../faults/index.js';

/** One entry of a list: anything that wraps the reference and is served by name. */
export interface ServedWrapper {
  name: string;
  area: string;
  description: string;
  breaks: readonly string[];
}

export interface ServeList {
  /** The flag that prints it (`--list-faults`). */
  flag: string;
  /** What an entry is, plural ("faults"). */
  noun: string;
  /** How one entry is served (`--fault NAME`). */
  use: string;
  entries(): ServedWrapper[];
}

export const SERVE_LISTS = {
  /** Keyed by the option's parsed name (`--list-faults` → listFaults). */
  listFaults: { flag: '--list-faults', noun: 'faults', use: 'serve --fault NAME (repeatable)', entries: () => listFaults() },
} as const satisfies Record<string, ServeList>;

export type ServeListName = keyof typeof SERVE_LISTS;

/** The list as aligned text: a header line, one line per entry grouped by area, then how to use one. */
export function renderServeList(list: ServeList): string {
  const entries = list.entries();
  const nameWidth = Math.max(4, ...entries.map((entry) => entry.name.length));
  const areaWidth = Math.max(4, ...entries.map((entry) => entry.area.length));
  const sorted = [...entries].sort((a, b) => a.area.localeCompare(b.area) || a.name.localeCompare(b.name));
  const lines = [`${entries.length} ${list.noun}: ${list.use}`, '', `${'name'.padEnd(nameWidth)}  ${'area'.padEnd(areaWidth)}  breaks: what the service does wrong`];
  for (const entry of sorted) {
    lines.push(`${entry.name.padEnd(nameWidth)}  ${entry.area.padEnd(areaWidth)}  ${entry.breaks.join(', ')}: ${entry.description}`);
  }
  return `${lines.join('\n')}\n`;
}
