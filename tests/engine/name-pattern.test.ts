/**
 * The trie-shaped alternation (src/engine/name-pattern.ts) matches exactly what the flat alternation of the
 * same strings matched, on seeded random strings with shared prefixes, prefixes of each other and regular
 * expression characters, anchored the way testNamePattern anchors them.
 */
import { describe, expect, it } from 'vitest';
import { literalAlternation } from '../../src/engine/name-pattern.js';
import { testNamePattern } from '../../src/engine/selection.js';
import { seededFaker } from '../../src/data/fake.js';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('literalAlternation', () => {
  it('matches the same texts as the flat alternation', () => {
    const faker = seededFaker('name-pattern');
    for (let round = 0; round < 300; round += 1) {
      const alphabet = faker.helpers.arrayElement(['ab', 'abc', 'a.b*', 'O@ /-', 'a(b)|']);
      const word = (): string => Array.from({ length: faker.number.int({ min: 0, max: 5 }) }, () => faker.helpers.arrayElement([...alphabet])).join('');
      const strings = Array.from({ length: faker.number.int({ min: 0, max: 8 }) }, word);
      const flat = new RegExp(`^(?:${strings.length === 0 ? '(?!)' : strings.map(escape).join('|')})$`);
      const trie = new RegExp(`^(?:${literalAlternation(strings)})$`);
      for (let probe = 0; probe < 30; probe += 1) {
        const text = probe < strings.length ? strings[probe]! : word();
        expect(trie.test(text), `${JSON.stringify(strings)} on ${JSON.stringify(text)}`).toBe(flat.test(text));
      }
    }
  });

  it('keeps testNamePattern\'s anchoring: an ID never selects a longer one, a key selects only its operation', () => {
    const pattern = testNamePattern(['WH-HMAC-1', 'OPS-04@GET /api/v1/apps']);
    expect(pattern.test('group WH-HMAC-1 text')).toBe(true);
    expect(pattern.test('group WH-HMAC-10 text')).toBe(false);
    expect(pattern.test('OPS-04@GET /api/v1/apps Every page')).toBe(true);
    expect(pattern.test('OPS-04@GET /api/v1/apps/x Every page')).toBe(false);
    expect(testNamePattern([]).test('anything at all ')).toBe(false);
  });
});
