/**
 * Seeded fake data: the one place that builds @faker-js/faker instances, so every generated value in a
 * run (tenant names, webhook bodies, malformed requests) comes from a seed the report prints.
 */
import { Faker, base, en } from '@faker-js/faker';

export type { Faker } from '@faker-js/faker';

/** FNV-1a of a text: stable across runs and platforms. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (const ch of text) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A faker seeded from a seed string and an optional scope (e.g. a requirement ID). */
export function seededFaker(seed: string | number, scope = ''): Faker {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(hashSeed(`${seed}/${scope}`));
  return faker;
}

/** A fresh random seed, printable and short. */
export function randomSeed(): string {
  return Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
}
