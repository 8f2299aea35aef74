import { describe, expect, it } from 'vitest';
import { drawSeeded, seededFaker, type Faker } from '../../src/data/fake.js';

/** A spread of the faker's modules, as the webhook bodies and the tenant draw them. */
function sample(faker: Faker): unknown[] {
  return [
    faker.helpers.arrayElement(['a', 'b', 'c', 'd']),
    faker.string.alphanumeric(12),
    faker.internet.email(),
    faker.person.fullName(),
    faker.company.name(),
    faker.lorem.sentence(),
    faker.date.recent({ refDate: Date.UTC(2026, 0, 1) }).toISOString(),
    faker.string.uuid(),
    faker.number.int({ min: 0, max: 1e9 }),
  ];
}

describe('drawSeeded', () => {
  it('draws what a fresh seededFaker with the same seed and scope draws, whatever was drawn before', () => {
    const scopes = ['WH-HMAC-01', 'WH-HMAC-01#2', 'OPS-04@GET /x', ''];
    for (const seed of ['00a88e49', 'ffffffff', 7]) {
      // Interleaved, and each scope twice: a reseeded instance carries nothing from one draw to the next.
      for (const scope of [...scopes, ...scopes.reverse()]) {
        expect(drawSeeded(seed, scope, sample)).toEqual(sample(seededFaker(seed, scope)));
      }
    }
  });

  it('differs between scopes (the seed reaches the draw)', () => {
    expect(drawSeeded('00a88e49', 'a', sample)).not.toEqual(drawSeeded('00a88e49', 'b', sample));
  });
});
