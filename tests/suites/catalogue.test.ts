/**
 * The catalogue and the suites agree: every requirement ID is named exactly once in suites/*.suite.ts (by
 * one `check()` call, directly or through a helper), in its group's file, every ID literal there is in the
 * catalogue, and every entry is complete (text, level, section, a group that is an existing suite file, a
 * list of needs). The suites are scanned as text so this runs without a target.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { allRequirements, catalogue } from '../../src/requirements/catalogue.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const suitesDir = join(root, 'suites');
const SUFFIX = '.suite.ts';

/** `PREFIX-NN`; an attack-class requirement keeps its area's prefix and marks the number with X (`WH-JWT-X01`). */
const ID_PATTERN = /^[A-Z]+(-[A-Z0-9]+)*-X?\d{2}$/;
const LEVELS = new Set(['MUST', 'SHOULD', 'INFO']);
/** A service.md section number (`4.4`, `7`) or `rulings` when only a ruling states it. */
const SECTION_PATTERN = /^(\d+(\.\d+)*|rulings)$/;
/** The highest ruling number of spec/rulings.md (its numbered items). */
const RULINGS = Math.max(...[...readFileSync(join(root, 'spec', 'rulings.md'), 'utf8').matchAll(/^(\d+)\. /gm)].map((match) => Number(match[1])));

const suiteFiles = readdirSync(suitesDir).filter((name) => name.endsWith(SUFFIX)).sort();
const groups = new Set(suiteFiles.map((name) => name.slice(0, -SUFFIX.length)));

/**
 * Every requirement ID written as a string literal in a suite file (comments stripped first), with its file.
 * A check names its ID either in `check('ID', ...)` directly or through a helper or a table that calls
 * check() with it (`eventIdRefused('WH-11', ...)`, `[['WH-JWT-01', 'RS256'], ...]`); either way the ID
 * literal appears once, and a second occurrence would mean a second test with that ID.
 */
function idLiterals(): Array<{ id: string; file: string }> {
  const found: Array<{ id: string; file: string }> = [];
  for (const file of suiteFiles) {
    const text = readFileSync(join(suitesDir, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const match of text.matchAll(/(['"`])([A-Z]+(?:-[A-Z0-9]+)*-X?\d{2})\1/g)) found.push({ id: match[2]!, file });
  }
  return found;
}

/** The files that call check() with some argument: the suites that define checks at all. */
function filesCallingCheck(): Set<string> {
  return new Set(suiteFiles.filter((file) => /\bcheck(Each)?\(/.test(readFileSync(join(suitesDir, file), 'utf8'))));
}

describe('requirement catalogue', () => {
  const requirements = allRequirements();
  const calls = idLiterals();

  test('there are suites and requirements to compare', () => {
    expect(suiteFiles.length).toBeGreaterThan(0);
    expect(requirements.length).toBeGreaterThan(0);
  });

  test('every ID has the stable form PREFIX-NN (or PREFIX-XNN)', () => {
    const bad = requirements.map((r) => r.id).filter((id) => !ID_PATTERN.test(id));
    expect(bad).toEqual([]);
  });

  test('every catalogue ID is named exactly once across the suites (one check() per ID)', () => {
    const uses = new Map<string, string[]>();
    for (const call of calls) uses.set(call.id, [...(uses.get(call.id) ?? []), call.file]);
    const problems = requirements
      .map((r) => ({ id: r.id, files: uses.get(r.id) ?? [] }))
      .filter((entry) => entry.files.length !== 1)
      .map((entry) => `${entry.id}: ${entry.files.length === 0 ? 'no check' : `named ${entry.files.length} times (${entry.files.join(', ')})`}`);
    expect(problems).toEqual([]);
  });

  test('every requirement-ID literal in the suites names a catalogue ID', () => {
    const unknown = calls.filter((call) => !Object.prototype.hasOwnProperty.call(catalogue, call.id)).map((c) => `${c.id} in ${c.file}`);
    expect(unknown).toEqual([]);
  });

  test('every check lives in the suite file of its group, and that file calls check()', () => {
    const checking = filesCallingCheck();
    expect([...new Set(calls.map((call) => call.file))].filter((file) => !checking.has(file))).toEqual([]);
    const misplaced = calls
      .filter((call) => Object.prototype.hasOwnProperty.call(catalogue, call.id))
      .filter((call) => `${(catalogue as Record<string, { group: string }>)[call.id]!.group}${SUFFIX}` !== call.file)
      .map((call) => `${call.id} in ${call.file}`);
    expect(misplaced).toEqual([]);
  });

  test('every entry is complete: text, level, section, ruling, group, needs', () => {
    const problems: string[] = [];
    for (const r of requirements) {
      if (typeof r.text !== 'string' || r.text.trim() === '') problems.push(`${r.id}: empty text`);
      if (!LEVELS.has(r.level)) problems.push(`${r.id}: level ${String(r.level)}`);
      if (typeof r.section !== 'string' || !SECTION_PATTERN.test(r.section)) problems.push(`${r.id}: section ${String(r.section)}`);
      if (r.ruling !== undefined && !(Number.isInteger(r.ruling) && r.ruling >= 1 && r.ruling <= RULINGS)) problems.push(`${r.id}: ruling ${r.ruling}`);
      if (!groups.has(r.group)) problems.push(`${r.id}: group ${r.group} has no suites/${r.group}${SUFFIX}`);
      if (!Array.isArray(r.needs)) problems.push(`${r.id}: needs is not a list`);
      if (r.movesClock && !r.needs.includes('hooks.clock')) problems.push(`${r.id}: moves the clock without needing hooks.clock`);
    }
    expect(problems).toEqual([]);
  });

  test('no ID prefix spans two groups', () => {
    // `WH-JWT-` and `WH-JWT-X` are distinct prefixes: the attack checks are a group of their own.
    const prefixOf = (id: string): string => id.replace(/\d{2}$/, '');
    const groupsByPrefix = new Map<string, Set<string>>();
    for (const r of requirements) {
      const set = groupsByPrefix.get(prefixOf(r.id)) ?? new Set<string>();
      set.add(r.group);
      groupsByPrefix.set(prefixOf(r.id), set);
    }
    const shared = [...groupsByPrefix].filter(([, set]) => set.size > 1).map(([prefix, set]) => `${prefix}: ${[...set].join(', ')}`);
    expect(shared).toEqual([]);
  });
});
