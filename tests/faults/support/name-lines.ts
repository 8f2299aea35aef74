/**
 * Where a name stands in src/: every line of every TypeScript file under src/ that holds it as a whole
 * kebab-case word (not as part of a longer name: `hmac-hex` is not in `hmac-hex-digest`). The "declared
 * once" tests of faults and variants count these lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../../../src/package.js';

export interface NameLine {
  /** The file, relative to the package root. */
  file: string;
  line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every name of `names` with the lines of src/ that hold it. */
export function linesNaming(names: readonly string[]): Map<string, NameLine[]> {
  const root = packageRoot();
  const found = new Map<string, NameLine[]>(names.map((name) => [name, []]));
  // One pass over src/: each kebab-case word of each line looked up among the names.
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path);
    readFileSync(path, 'utf8').split('\n').forEach((text, index) => {
      const words = new Set(text.match(/[a-z0-9]+(?:-[a-z0-9]+)+/g) ?? []);
      for (const word of words) found.get(word)?.push({ file, line: index + 1 });
    });
  }
  return found;
}
