/**
 * Text from the target is data, never markup or terminal commands. Every reporter renders target text
 * (bodies, headers, error messages that quote them) through one of these functions, one per medium:
 * the terminal, Markdown, HTML/XML, GitHub workflow commands. Each makes control characters visible
 * (`\x1b`), so a body cannot clear the screen, rewrite a line with CR, reorder text with bidi overrides
 * or inject a fake verdict, and caps how much of one exchange is shown.
 */

/** Bytes of one body shown per exchange; the rest is counted, not shown. */
export const SHOWN_BODY_BYTES = 2048;

/**
 * C0 controls (tab and line feed are handled by callers), DEL, C1 controls, bidi embeddings, overrides
 * and isolates, and the invisible direction marks: what can move the cursor, recolour or reorder text.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Every unsafe character shown as an escape (`\x1b`, `\u202e`); line feeds kept unless `newlines` is
 * false (then shown as `\n`); tabs kept. The result holds no byte a terminal or a parser acts on.
 */
export function visibleControls(text: string, options: { newlines?: boolean } = {}): string {
  const keepNewlines = options.newlines ?? true;
  const out = text.replace(UNSAFE, visible);
  return keepNewlines ? out : out.replace(/\r?\n/g, '\\n');
}

/** True when `text` holds a character {@link visibleControls} would rewrite (tests, assertions). */
export function hasUnsafeControls(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/** One line of target text: controls visible, line breaks as `\n`. For labels, messages, table cells. */
export function oneLine(text: string): string {
  return visibleControls(text, { newlines: false });
}

/**
 * The first `maxBytes` of `text` (UTF-8, never splitting a character) and how many bytes were left out.
 * `recorded` describes a recorded body: its size on the wire and whether the recorder already cut it
 * (the text may also be shorter than the wire size because secrets in it were redacted).
 */
export function capText(text: string, maxBytes = SHOWN_BODY_BYTES, recorded?: { totalBytes: number; truncated: boolean }): { text: string; moreBytes: number } {
  const bytes = Buffer.byteLength(text, 'utf8');
  const total = recorded?.truncated ? Math.max(recorded.totalBytes, bytes) : bytes;
  if (bytes <= maxBytes) return { text, moreBytes: total - bytes };
  const kept = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8').replace(/\uFFFD+$/, '');
  return { text: kept, moreBytes: Math.max(1, total - Buffer.byteLength(kept, 'utf8')) };
}

/** Target text for one line of any output: capped at `maxBytes`, controls visible, line breaks as `\n`. */
export function shortText(text: string, maxBytes = 1024): string {
  const cut = capText(text, maxBytes);
  return `${oneLine(cut.text)}${cut.moreBytes > 0 ? ` ${moreBytesNote(cut.moreBytes)}` : ''}`;
}

/** "… 2048 more bytes" when something was left out, else ''. */
export function moreBytesNote(moreBytes: number): string {
  return moreBytes > 0 ? `… ${moreBytes} more bytes` : '';
}

/**
 * Text for HTML and XML content and attribute values: markup characters as entities, controls visible.
 * XML 1.0 forbids most control characters even as references, so they never reach a document raw.
 */
export function escapeMarkup(text: string): string {
  return visibleControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The longest run of `char` in `text`. */
function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/**
 * A Markdown code span: a backtick fence longer than any backtick run inside, so the text cannot close it
 * and nothing in it becomes a link, image or HTML. Line breaks and pipes are escaped for table cells.
 */
export function mdCode(text: string): string {
  const clean = oneLine(text).replace(/\|/g, '\\|');
  if (clean === '') return '` `';
  const fence = '`'.repeat(longestRun(clean, '`') + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || (clean.startsWith(' ') && clean.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/**
 * A Markdown fenced block: a fence longer than any backtick run inside (at least three), so the text
 * cannot end the block; inside it nothing is Markdown or HTML. Returns the lines, fences included.
 */
export function mdFence(text: string, info = ''): string[] {
  const body = visibleControls(text);
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return [`${fence}${info}`, ...body.split('\n'), fence];
}

/**
 * Plain Markdown text on one line: HTML as entities and the punctuation that makes emphasis, code, links,
 * images, strikethrough or table cells backslash-escaped, and the starts of autolinks (`http://`,
 * `www.`) broken, so the text renders as itself; for our own sentences and for target text alike.
 */
export function mdText(text: string): string {
  return oneLine(text)
    .replace(/[\\`*_[\]()|~!]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.');
}

/** GitHub workflow command data (the message after `::`): `%`, CR and LF encoded, controls visible. */
export function ghData(text: string): string {
  return visibleControls(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** GitHub workflow command property values (`title=`): also `:` and `,`. */
export function ghProperty(text: string): string {
  return ghData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A prefix for lines of target text on a console, so no such line starts where a CI parser looks. */
export const TARGET_LINE_PREFIX = '│ ';

/** A literal for POSIX shells: single quotes, or `$'…'` when it holds control characters. */
export function shellLiteral(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) {
    const inner = text.replace(/[\\']/g, '\\$&').replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    return `$'${inner}'`;
  }
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
