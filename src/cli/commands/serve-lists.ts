/**
 * `serve --list-faults` and `serve --list-variants`: what `--fault` accepts, one line each: name, area,
 * the requirements it breaks (a fault) or warns on (a variant, a stack), and what it does. A table of
 * lists: each kind of wrapper of the reference is one row with its flag, its entries and how to serve one.
 * `serve --list-mistakes` is the other side: the client mistakes the sandbox names, with the statuses of
 * the refusals each explains and its sentence.
 */
import { listFaults } from '../../faults/index.js';
import { MISTAKES } from '../../sandbox/mistakes/index.js';
import { STACKS, listVariants, stackVariants } from '../../variants/index.js';

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
  /** The last column's heading: what the requirement IDs mean and what the text says. */
  heading: string;
  entries(): ServedWrapper[];
}

export const SERVE_LISTS = {
  /** Keyed by the option's parsed name (`--list-faults` → listFaults). */
  listFaults: { flag: '--list-faults', noun: 'faults', use: 'serve --fault NAME (repeatable)', heading: 'breaks: what the service does wrong', entries: () => listFaults() },
  listVariants: {
    flag: '--list-variants',
    noun: 'legitimate variants and stacks',
    use: 'serve --fault NAME (repeatable; a run passes, --strict warns on the SHOULD checks named)',
    heading: 'warns: the reading the spec leaves open (the stacks that take it)',
    entries: () => [
      ...listVariants().map((v) => ({ name: v.name, area: v.area, breaks: v.warns, description: `${v.description} (${v.stacks})` })),
      ...STACKS.map((stack) => {
        const variants = stackVariants(stack);
        return { name: stack.name, area: 'stack', breaks: [...new Set(variants.flatMap((v) => v.warns))], description: `${stack.title}: ${stack.variants.join(', ')}` };
      }),
    ],
  },
  listMistakes: {
    flag: '--list-mistakes',
    noun: 'client mistakes',
    use: 'the code is the "mistake" field of a refused answer; docs/sandbox.md#CODE explains it',
    heading: 'statuses: the sentence in error_description',
    entries: () => MISTAKES.map((m) => ({ name: m.code, area: m.area, breaks: [...new Set(m.explains.map((r) => String(r.status)))], description: m.sentence })),
  },
} as const satisfies Record<string, ServeList>;

export type ServeListName = keyof typeof SERVE_LISTS;

/** The list as aligned text: a header line, one line per entry grouped by area, then how to use one. */
export function renderServeList(list: ServeList): string {
  const entries = list.entries();
  const nameWidth = Math.max(4, ...entries.map((entry) => entry.name.length));
  const areaWidth = Math.max(4, ...entries.map((entry) => entry.area.length));
  const sorted = [...entries].sort((a, b) => a.area.localeCompare(b.area) || a.name.localeCompare(b.name));
  const lines = [`${entries.length} ${list.noun}: ${list.use}`, '', `${'name'.padEnd(nameWidth)}  ${'area'.padEnd(areaWidth)}  ${list.heading}`];
  for (const entry of sorted) {
    lines.push(`${entry.name.padEnd(nameWidth)}  ${entry.area.padEnd(areaWidth)}  ${entry.breaks.length > 0 ? entry.breaks.join(', ') : '(none)'}: ${entry.description}`);
  }
  return `${lines.join('\n')}\n`;
}
