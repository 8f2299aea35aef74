/**
 * The fixed list of other serialisations of a JSON body a sender may have signed instead of the bytes it
 * sent: pretty-printed (2 and 4 spaces, tabs), compact, sorted keys, Python's `json.dumps` separators and
 * ASCII escapes, a trailing line feed added or removed. Each is the whole body in that form; a body that
 * is not JSON gets only the line-feed forms. Bounded: the body is at most the listener's 64 KiB.
 */
export interface Reserialized {
  /** How the body was written, for the sentence ("pretty-printed with 2 spaces"). */
  readonly form: string;
  readonly bytes: Buffer;
}

interface Style {
  readonly item: string;
  readonly key: string;
  readonly sort: boolean;
  readonly ascii: boolean;
}

/** A JSON value written with the given separators (no indentation), keys sorted or not. */
function write(value: unknown, style: Style): string {
  if (Array.isArray(value)) return `[${value.map((item) => write(item, style)).join(style.item)}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    if (style.sort) keys.sort();
    return `{${keys.map((k) => `${text(k, style)}${style.key}${write((value as Record<string, unknown>)[k], style)}`).join(style.item)}}`;
  }
  return typeof value === 'string' ? text(value, style) : JSON.stringify(value);
}

function text(value: string, style: Style): string {
  const quoted = JSON.stringify(value);
  return style.ascii ? quoted.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : quoted;
}

function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedDeep((value as Record<string, unknown>)[k])]));
  }
  return value;
}

const FORMS: ReadonlyArray<readonly [string, (value: unknown) => string]> = [
  ['pretty-printed with 2 spaces', (v) => JSON.stringify(v, null, 2)],
  ['pretty-printed with 4 spaces', (v) => JSON.stringify(v, null, 4)],
  ['pretty-printed with tabs', (v) => JSON.stringify(v, null, '\t')],
  ['re-serialised compact', (v) => JSON.stringify(v)],
  ['re-serialised with its keys sorted', (v) => write(v, { item: ',', key: ':', sort: true, ascii: false })],
  ['pretty-printed with 2 spaces and its keys sorted', (v) => JSON.stringify(sortedDeep(v), null, 2)],
  ['written with ", " and ": " separators (Python\'s json.dumps)', (v) => write(v, { item: ', ', key: ': ', sort: false, ascii: true })],
  ['written with ", " and ": " separators and its keys sorted', (v) => write(v, { item: ', ', key: ': ', sort: true, ascii: true })],
];

export function reserializations(body: Buffer): Reserialized[] {
  const raw = body.toString('utf8');
  const out: Reserialized[] = [];
  const add = (form: string, made: string): void => {
    if (made !== raw) out.push({ form, bytes: Buffer.from(made, 'utf8') });
  };
  let value: unknown;
  let parsed = false;
  try {
    value = JSON.parse(raw);
    parsed = true;
  } catch {
    parsed = false;
  }
  for (const [form, make] of FORMS) {
    if (!parsed) break;
    try {
      add(form, make(value));
    } catch {
      // A body nested deeper than the stack allows has no other form worth trying.
      break;
    }
  }
  add('with a trailing line feed', `${raw}\n`);
  if (raw.endsWith('\n')) add('without its trailing line feed', raw.replace(/\r?\n$/, ''));
  return out;
}
