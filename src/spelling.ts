/**
 * Near names for "did you mean": an unknown flag (`--reportr` → `--reporter`), requirement ID or profile
 * field. No imports: the CLI reaches it on a usage error before anything heavy loads.
 */

/** Levenshtein distance (names here are short: flags, IDs, field names). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to a misspelt one, case-insensitively, within `maxDistance` edits. */
export function closest(name: string, candidates: readonly string[], maxDistance = 2): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= maxDistance && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
