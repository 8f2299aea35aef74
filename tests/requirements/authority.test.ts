/**
 * Provenance of every catalogue entry: each names its authority, a service.md sentence is really in the
 * section it names (quoted exactly, whitespace aside), a ruling number exists in rulings.md, an RFC is one
 * the catalogue knows, and no MUST rests on the harness's own reading. The spec is read from the copy in
 * spec/ (so a clean clone can run this); the copy is compared with ../shared/spec when that exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { allRequirements, describeAuthority, type Authority, type Level } from '../../src/requirements/catalogue.js';
import { RFC_NAMES, reading, rfc, ruling, spec } from '../../src/requirements/authority.js';
import { skipUnless } from '../support/capabilities.js';

const root = packageRoot();
const SPEC_FILES = ['service.md', 'rulings.md'] as const;
const readSpec = (name: string, dir = join(root, 'spec')): string => readFileSync(join(dir, name), 'utf8');
const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** service.md's sections by number (`2.1`, `7`): a heading's text up to the next heading of its level or above. */
function sections(markdown: string): Map<string, string> {
  const lines = markdown.split('\n');
  const found = new Map<string, string>();
  lines.forEach((line, start) => {
    const heading = /^(#{2,6}) (\d+(?:\.\d+)*)\.? /.exec(line);
    if (!heading) return;
    const depth = heading[1]!.length;
    let end = start + 1;
    while (end < lines.length && !(/^(#+) /.exec(lines[end]!) && /^(#+) /.exec(lines[end]!)![1]!.length <= depth)) end += 1;
    found.set(heading[2]!, normalise(lines.slice(start, end).join('\n')));
  });
  return found;
}

/** The numbers of rulings.md's numbered rulings (`24. Repeated …`). */
function rulingNumbers(markdown: string): Set<number> {
  return new Set([...markdown.matchAll(/^(\d+)\. /gm)].map((match) => Number(match[1])));
}

/** Every way an entry's authority fails; empty when all hold. */
function authorityProblems(requirements: readonly { id: string; level: Level; authority: Authority }[], serviceMd: string, rulingsMd: string): string[] {
  const bySection = sections(serviceMd);
  const rulings = rulingNumbers(rulingsMd);
  const problems: string[] = [];
  for (const { id, level, authority } of requirements) {
    if (authority === undefined) {
      problems.push(`${id}: no authority`);
      continue;
    }
    switch (authority.kind) {
      case 'spec': {
        const text = bySection.get(authority.section);
        if (text === undefined) problems.push(`${id}: service.md has no section ${authority.section}`);
        else if (normalise(authority.quote) === '' || !text.includes(normalise(authority.quote)))
          problems.push(`${id}: "${authority.quote}" is not in service.md §${authority.section}`);
        break;
      }
      case 'ruling':
        if (!rulings.has(authority.ruling)) problems.push(`${id}: rulings.md has no ruling ${authority.ruling}`);
        break;
      case 'rfc':
        if (RFC_NAMES[authority.rfc] === undefined) problems.push(`${id}: RFC ${authority.rfc} is not one the catalogue cites (RFC_NAMES)`);
        if (!/^\d+(\.\d+)*$/.test(authority.section)) problems.push(`${id}: RFC section ${authority.section}`);
        if (authority.requirement.trim() === '') problems.push(`${id}: RFC ${authority.rfc} without the requirement`);
        break;
      case 'reading':
        if (level === 'MUST') problems.push(`${id}: a MUST resting on the harness's own reading (${authority.why})`);
        break;
      default:
        problems.push(`${id}: unknown authority ${JSON.stringify(authority)}`);
    }
  }
  return problems;
}

describe('requirement provenance', () => {
  const serviceMd = readSpec('service.md');
  const rulingsMd = readSpec('rulings.md');

  test('every entry names an authority that holds: quotes verbatim, rulings that exist, no MUST on a reading', () => {
    expect(authorityProblems(allRequirements(), serviceMd, rulingsMd)).toEqual([]);
  });

  test('the check fails what it should: a quote not in its section, a missing ruling, a MUST on a reading, none', () => {
    const problems = authorityProblems(
      [
        { id: 'A', level: 'MUST', authority: spec('5.4', 'A mismatch gives 401.') },
        { id: 'B', level: 'MUST', authority: spec('7', 'A mismatch gives 401.') },
        { id: 'C', level: 'MUST', authority: spec('5.4', 'A mismatch gives 400.') },
        { id: 'D', level: 'MUST', authority: ruling(99) },
        { id: 'E', level: 'MUST', authority: reading('the harness thinks so') },
        { id: 'F', level: 'SHOULD', authority: reading('the harness thinks so') },
        { id: 'G', level: 'MUST', authority: rfc(1149, '3', 'avian carriers') },
        { id: 'H', level: 'MUST', authority: undefined as never },
        { id: 'I', level: 'MUST', authority: spec('5.4', '  A mismatch\n   gives 401. ') },
      ],
      serviceMd,
      rulingsMd,
    );
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(['B', 'C', 'D', 'E', 'G', 'H']);
  });

  test('every MUST rests on service.md, an RFC or a ruling; the wording names it', () => {
    const must = allRequirements().filter((req) => req.level === 'MUST');
    expect(must.length).toBeGreaterThan(0);
    for (const req of must) expect(describeAuthority(req.authority), req.id).toMatch(/^(service\.md §|RFC \d+|rulings\.md ruling \d+)/);
  });

  test('spec/ is the authority\'s copy: identical to ../shared/spec', (ctx) => {
    skipUnless(ctx, 'shared-spec', existsSync(join(root, '..', 'shared', 'spec')), 'no ../shared/spec beside the repository (the authority\'s folder of this workspace)');
    for (const name of SPEC_FILES) expect(readSpec(name), `spec/${name} differs from ../shared/spec/${name}: copy it again`).toBe(readSpec(name, join(root, '..', 'shared', 'spec')));
  });
});
