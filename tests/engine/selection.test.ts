import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.js';
import { nearMatches, resolveSelection, splitPatterns, testNamePattern } from '../../src/engine/selection.js';
import type { Requirement } from '../../src/requirements/catalogue.js';

const catalogue = ['WH-HMAC-1', 'WH-HMAC-10', 'WH-HMAC-2', 'TOK-01', 'TOK-02', 'PAGE-01'].map(
  (id) => ({ id, level: 'MUST', section: '1', text: `text of ${id}`, group: id.split('-')[0]!.toLowerCase(), needs: [] }) as unknown as Requirement,
);

function ids(only: string[], skip: string[] = []): string[] {
  return resolveSelection({ only, skip }, catalogue).requirements.map((r) => r.id);
}

function error(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (e) {
    return e as HarnessError;
  }
  throw new Error('expected an error');
}

describe('selection', () => {
  it('splits comma-separated and repeated values', () => {
    expect(splitPatterns(['A,B', ' C ', '', 'D,,'])).toEqual(['A', 'B', 'C', 'D']);
    expect(splitPatterns('X')).toEqual(['X']);
    expect(splitPatterns(undefined)).toEqual([]);
  });

  it('takes exact IDs (case-insensitive) and globs, keeps catalogue order, applies --skip after --only', () => {
    expect(ids([])).toHaveLength(catalogue.length);
    expect(ids(['tok-02', 'WH-HMAC-1'])).toEqual(['WH-HMAC-1', 'TOK-02']);
    expect(ids(['WH-HMAC-*'])).toEqual(['WH-HMAC-1', 'WH-HMAC-10', 'WH-HMAC-2']);
    expect(ids(['WH-HMAC-?'])).toEqual(['WH-HMAC-1', 'WH-HMAC-2']);
    expect(ids(['WH-*'], ['WH-HMAC-1*'])).toEqual(['WH-HMAC-2']);
    expect(ids([], ['TOK-*', 'PAGE-01'])).toEqual(['WH-HMAC-1', 'WH-HMAC-10', 'WH-HMAC-2']);
  });

  it('an unknown exact ID is a usage error with near matches', () => {
    const e = error(() => ids(['TOK-1']));
    expect(e.code).toBe('USAGE');
    expect(e.message).toContain('"TOK-1"');
    expect(e.message).toMatch(/near matches: TOK-01/);
    expect(error(() => ids([], ['NOPE'])).field).toBe('--skip');
  });

  it('a glob that matches no requirement of the catalogue is a usage error naming it (--only and --skip)', () => {
    const onlyNothing = error(() => ids(['NOPE-*']));
    expect(onlyNothing.code).toBe('USAGE');
    expect(onlyNothing.field).toBe('--only');
    expect(onlyNothing.message).toContain('--only NOPE-* matches no requirement');
    const skipNothing = error(() => ids(['TOK-*'], ['NOPE-?']));
    expect(skipNothing.code).toBe('USAGE');
    expect(skipNothing.message).toContain('--skip NOPE-? matches no requirement');
    // A --skip glob that matches requirements outside --only is not a mistake.
    expect(ids(['TOK-*'], ['PAGE-*']).length).toBeGreaterThan(0);
  });

  it('an empty selection is NOTHING_SELECTED and says why', () => {
    const skipAll = error(() => ids(['TOK-*'], ['TOK-*']));
    expect(skipAll.code).toBe('NOTHING_SELECTED');
    expect(skipAll.message).toContain('--skip');
  });

  it('the test-name pattern anchors each ID on a following space: WH-HMAC-1 never selects WH-HMAC-10', () => {
    const pattern = testNamePattern(['WH-HMAC-1', 'TOK-01']);
    expect(pattern.test('WH-HMAC-1 accepts a valid signature')).toBe(true);
    expect(pattern.test('WH-HMAC-10 refuses a padded signature')).toBe(false);
    expect(pattern.test('webhook-hmac WH-HMAC-1 inside a describe')).toBe(true);
    expect(pattern.test('TOK-01 basic')).toBe(true);
    expect(pattern.test('XTOK-01 basic')).toBe(false);
    expect(testNamePattern(['A.B']).test('AxB text')).toBe(false);
  });

  it('near matches prefer the same prefix', () => {
    expect(nearMatches('WH-HMAC-3', catalogue.map((r) => r.id), 3)).toEqual(['WH-HMAC-1', 'WH-HMAC-2', 'WH-HMAC-10']);
  });
});
