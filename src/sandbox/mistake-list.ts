/**
 * docs/sandbox.md "When the sandbox says no", generated from the catalogue (`npm run docs` writes it,
 * tests/docs/readme.test.ts compares): one table per area, a row per mistake with its anchor (the
 * answer's `error_uri` points at it), the refusals it explains (status and the reference's own words,
 * which the sentence replaces) and the sentence as written, `{placeholders}` and all.
 */
import { MISTAKE_AREAS } from './mistakes/index.js';

export const MISTAKE_LIST_BEGIN = '<!-- mistake-list:start -->';
export const MISTAKE_LIST_END = '<!-- mistake-list:end -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMistakeList(): string {
  const count = MISTAKE_AREAS.reduce((sum, area) => sum + area.mistakes.length, 0);
  const lines = [`${count} mistakes, in the order the diagnosis tries them.`, ''];
  for (const area of MISTAKE_AREAS) {
    lines.push(`### ${area.title}`, '', '| mistake | refusal it explains | the sentence in error_description |', '|---|---|---|');
    for (const mistake of area.mistakes) {
      const refusals = mistake.explains.map((r) => `${r.status} "${cell(r.says)}${r.says.endsWith('(') ? '…' : ''}"${r.path === undefined ? '' : ` on ${r.path}`}`).join(', ');
      lines.push(`| <a id="${mistake.code}"></a>\`${mistake.code}\` | ${refusals} | ${cell(mistake.sentence)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** `document` with the text between the markers replaced by the list (markers kept). */
export function replaceMistakeList(document: string): string {
  const begin = document.indexOf(MISTAKE_LIST_BEGIN);
  const end = document.indexOf(MISTAKE_LIST_END);
  if (begin < 0 || end < begin) throw new Error('docs/sandbox.md has no mistake-list markers');
  return `${document.slice(0, begin + MISTAKE_LIST_BEGIN.length)}\n${renderMistakeList()}\n${document.slice(end)}`;
}
