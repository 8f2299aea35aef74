/**
 * The redactor finds secret shapes with an index on their first characters instead of one regular
 * expression `longest|…|shortest`. Both must replace the same text: leftmost match first and, at one
 * position, the longest shape. Compared here on seeded random texts holding secrets in every shape (plain,
 * URL-encoded, base64 at any offset inside a longer value), overlapping and prefix-sharing secrets included,
 * and texts the other rules leave alone (no JWTs, no credential field names).
 */
import { describe, expect, test } from 'vitest';
import { REDACTED, Redactor, secretShapes } from '../../src/client/index.js';
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
