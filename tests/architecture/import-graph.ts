/**
 * The import graph of src/, read from the source text: which module imports which (static and dynamic
 * imports, with type-only imports told apart, since TypeScript erases them), and which rooms (top-level
 * folders of src/) they join. docs/architecture.md states the rules that tests/architecture checks on it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ImportEdge {
  from: string;
  /** A path under src/ (relative to the root) or a package name. */
  to: string;
  typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/g;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; node: builtins stay as they are. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export function readImportGraph(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const from = relative(root, file);
    const add = (specifier: string, typeOnly: boolean): void => {
      const to = specifier.startsWith('.') ? relative(root, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts') : packageName(specifier);
      edges.push({ from, to, typeOnly });
    };
    for (const match of text.matchAll(IMPORT)) {
      // `import { type A, type B } from` is type-only too.
      const braces = /\{([^}]*)\}/.exec(match[0])?.[1];
      const allTypes = braces !== undefined && braces.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '));
      add(match[3]!, match[2] !== undefined || allTypes);
    }
    for (const match of text.matchAll(DYNAMIC)) add(match[1]!, false);
  }
  return edges;
}

/** The room of a path under src/: its first folder, or the file's name for files at the top of src/. */
export function roomOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return path;
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.ts$/, '');
}

/** Cycles among modules through value imports (type imports are erased and cannot form a runtime cycle). */
export function moduleCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.typeOnly || !edge.to.startsWith('src/')) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const target of next.get(node) ?? []) {
      const seen = state.get(target);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target]);
      else if (seen === undefined) visit(target);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...next.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
