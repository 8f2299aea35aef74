/**
 * Seeded fake data: the one place that builds @faker-js/faker instances, so every generated value in a
 * run (tenant names, webhook bodies, malformed requests) comes from a seed the report prints.
 */
// The English locale entry point, not the package root: the root evaluates every locale (~40 MB of heap
// per thread that loads it, and the engine loads this module in the CLI and in every suite worker).
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import type { Faker } from '@faker-js/faker';

export type { Faker } from '@faker-js/faker';

/** The Faker class, reached through the English instance (the same class the package root exports). */
const FakerClass = englishFaker.constructor as typeof Faker;

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
  // The English instance's definitions are en merged over base: the same values as `[en, base]` for a seed.
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions });
  faker.seed(hashSeed(`${seed}/${scope}`));
  return faker;
}

let reseeded: Faker | undefined;

/**
 * `draw` given a faker in the state `seededFaker(seed, scope)` returns, without building one: a Faker is
 * built once per thread and reseeded per call (building one per webhook body was a tenth of the suite
 * thread's time in a run). Reseeding gives the same values as a fresh instance (tests/data/fake.test.ts).
 * `draw` must be synchronous and must not keep the faker: the next call reseeds it.
 */
export function drawSeeded<T>(seed: string | number, scope: string, draw: (faker: Faker) => T): T {
  const faker = (reseeded ??= new FakerClass({ locale: englishFaker.rawDefinitions }));
  faker.seed(hashSeed(`${seed}/${scope}`));
  return draw(faker);
}
