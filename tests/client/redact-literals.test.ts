/**
 * The redactor finds secret shapes with an index on their first characters instead of one regular
 * expression `longest|…|shortest`. Both must replace the same text: leftmost match first and, at one
 * position, the longest shape. Compared here on seeded random texts holding secrets in every shape (plain,
 * URL-encoded, base64 at any offset inside a longer value), overlapping and prefix-sharing secrets included,
 * and texts the other rules leave alone (no JWTs, no credential field names).
 */
import { describe, expect, test } from 'vitest';
import { REDACTED, Redactor, secretShapes } from '../../src/client/index.js';
import { RecentLiterals } from '../../src/client/redact.js';
import { seededFaker } from '../../src/data/fake.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What the redactor did before: one alternation, longest shape first. */
function regexRedact(text: string, secrets: readonly string[]): string {
  const shapes = [...new Set(secrets.flatMap(secretShapes))].sort((a, b) => b.length - a.length);
  return shapes.length === 0 ? text : text.replace(new RegExp(shapes.map(escapeRegExp).join('|'), 'g'), REDACTED);
}

describe('redaction of secret shapes', () => {
  test('replaces exactly what the single regular expression replaced', () => {
    const faker = seededFaker('redact-literals');
    for (let round = 0; round < 200; round += 1) {
      const secrets = Array.from({ length: faker.number.int({ min: 1, max: 6 }) }, () => faker.string.alphanumeric({ length: { min: 4, max: 40 } }));
      // A secret that is a prefix of another, and one that shares the first characters of another.
      secrets.push(`${secrets[0]}${faker.string.alphanumeric(6)}`, `${secrets[0]!.slice(0, 4)}${faker.string.alphanumeric(8)}`);
      const pieces: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        const secret = faker.helpers.arrayElement(secrets);
        const shape = faker.helpers.arrayElement([
          secret,
          encodeURIComponent(`${secret}/+ `),
          Buffer.from(`${faker.string.alphanumeric({ length: { min: 0, max: 3 } })}${secret}${faker.string.alphanumeric(2)}`).toString('base64'),
          Buffer.from(secret).toString('base64url'),
          faker.lorem.words(3),
          secret.slice(0, faker.number.int({ min: 1, max: secret.length })),
        ]);
        pieces.push(shape, faker.helpers.arrayElement([' ', '', ':', '/', faker.string.alphanumeric(3)]));
      }
      const text = pieces.join('');
      expect(new Redactor(secrets).redact(text), text).toBe(regexRedact(text, secrets));
    }
  });

  test('secrets added one at a time, a thousand of one format, are each redacted in every shape', () => {
    const redactor = new Redactor([]);
    const tokens = Array.from({ length: 1000 }, (_, i) => `at_${String(i).padStart(6, '0')}_${Buffer.from(`token-${i}`).toString('base64url')}`);
    for (const [i, token] of tokens.entries()) {
      redactor.addFixed(token);
      // Redacting between additions: the index grows without losing what it held.
      if (i % 100 === 0) expect(redactor.redact(`Bearer ${tokens[0]} and ${token}`)).toBe(`Bearer ${REDACTED} and ${REDACTED}`);
    }
    for (const token of [tokens[0]!, tokens[499]!, tokens[999]!]) {
      const text = `a=${encodeURIComponent(token)} b=${Buffer.from(token).toString('base64')} c=${token}`;
      expect(redactor.redact(text)).toBe(regexRedact(text, tokens));
    }
    // A text that shares the tokens' first characters but holds none of them stays as it was.
    expect(redactor.redact('at_000000_ nothing here at_999999')).toBe('at_000000_ nothing here at_999999');
  });

  test('a text without any shape comes back unchanged, and adjacent secrets are both replaced', () => {
    const redactor = new Redactor(['s3cr3t-value', 'another-one']);
    expect(redactor.redact('nothing to see here')).toBe('nothing to see here');
    expect(redactor.redact('s3cr3t-valueanother-one!')).toBe(`${REDACTED}${REDACTED}!`);
  });
});

describe('RecentLiterals (one-request values, the most recent N)', () => {
  const value = (n: number): string => `v1=signature-number-${String(n).padStart(4, '0')}-of-one-request`;

  test('redacts the last N values in every shape, forgets older ones, and keeps a value added again', () => {
    const recent = new RecentLiterals(3);
    for (let n = 1; n <= 5; n += 1) recent.add(value(n));
    expect(recent.replaceAll(`${value(1)} ${value(2)}`)).toBe(`${value(1)} ${value(2)}`);
    for (const n of [3, 4, 5]) {
      expect(recent.replaceAll(`a ${value(n)} b`)).toBe(`a ${REDACTED} b`);
      expect(recent.replaceAll(encodeURIComponent(value(n)))).toBe(REDACTED);
      expect(recent.occursIn(`x${Buffer.from(value(n)).toString('base64')}`)).toBe(true);
    }
    expect(recent.occursIn(value(2))).toBe(false);
    // 3 is the oldest; added again it is the most recent, so 4 goes when 6 comes.
    recent.add(value(3));
    recent.add(value(6));
    expect(recent.occursIn(value(3))).toBe(true);
    expect(recent.occursIn(value(4))).toBe(false);
    expect(recent.occursIn(value(6))).toBe(true);
  });

  test('a shape two values share stays until both are gone', () => {
    const recent = new RecentLiterals(2);
    // A's URL-encoded shape is B's plain text.
    const a = 'one value with spaces';
    const b = encodeURIComponent(a);
    recent.add(a);
    recent.add(b);
    recent.add(value(1)); // A goes
    expect(recent.occursIn(a)).toBe(false);
    expect(recent.occursIn(b)).toBe(true);
    recent.add(value(2)); // B goes
    expect(recent.occursIn(b)).toBe(false);
  });
});
