/**
 * The package root (the folder with this tool's package.json): suites/ are found relative to it. Works from
 * src/engine/ (under vitest or tsx) and from dist/src/engine/ (the built CLI), whatever the working directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'access-conformance';

let cached: { root: string; version: string } | undefined;

function locate(): { root: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      // dist/ holds no package.json today, but a nested one with another name must not stop the walk.
      if (pkg.name === PACKAGE_NAME) return { root: dir, version: pkg.version ?? '0.0.0' };
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json of ${PACKAGE_NAME} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export function packageRoot(): string {
  cached ??= locate();
  return cached.root;
}

export function toolVersion(): string {
  cached ??= locate();
  return cached.version;
}

export const TOOL_NAME = PACKAGE_NAME;
