/**
 * A run's seed, apart from the faker: `run` draws it first thing (a run stopped in start-up still reports
 * with its seed), before the faker's module (and its English locale) has any reason to load.
 */

/** A fresh random seed, printable and short. */
export function randomSeed(): string {
  return Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0');
}
