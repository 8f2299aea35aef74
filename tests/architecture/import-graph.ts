/**
 * The import graph of src/ (and of suites/, scripts/, bench/ for the cycle check), read from the source
 * with TypeScript's parser, so a comment is no import (a JSDoc `{@link import(...)}` names a type, it does
 * not load a module): static imports and re-exports, lazy `import()`, and `import('…').T` in a type
 * position, with type-only edges told apart (TypeScript erases them) and lazy ones marked. docs/architecture.md
 * states the rules that tests/architecture checks on it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  from: string;
  /** A path under the root (relative to it, `.js` read as `.ts`) or a package name. */
  to: string;
  typeOnly: boolean;
  /** A dynamic `import()` (loaded when called, not when the module is). */
  lazy: boolean;
}

/** Every TypeScript module under `dir` (declaration files aside). */
export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`; node: builtins stay as they are. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** `import { type A, type B } from` and `export { type A } from` are type-only too. */
function allTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

export function importsOf(text: string): { specifier: string; typeOnly: boolean; lazy: boolean }[] {
  const found: { specifier: string; typeOnly: boolean; lazy: boolean }[] = [];
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && allTypes(bindings.elements)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly, lazy: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly = node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && allTypes(clause.elements));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly, lazy: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      if (argument !== undefined && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, typeOnly: false, lazy: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true, lazy: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The edges out of every module under the given folders of the root (src/ unless told). */
export function readImportGraph(root: string, folders: readonly string[] = ['src']): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const from = relative(root, file);
    for (const { specifier, typeOnly, lazy } of importsOf(readFileSync(file, 'utf8'))) {
      const to = specifier.startsWith('.') ? relative(root, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts') : packageName(specifier);
      edges.push({ from, to, typeOnly, lazy });
    }
  }
  return edges;
}

/** The room of a path under src/: its first folder, or the file's name for files at the top of src/. */
export function roomOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return path;
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.ts$/, '');
}

/**
 * Every import circle among modules, through any edge: a type-only or lazy import closes a circle as
 * surely as a value import does for the reader (a type that must be fetched from a module that imports
 * you lives in the wrong file), even where Node would not notice. One circle per strongly connected
 * component (Tarjan), named by a shortest way round it from its first module, so a test failure says
 * which files to untangle.
 */
export function moduleCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (!/^(src|suites|scripts|bench|tests)\//.test(edge.to)) continue;
    const targets = next.get(edge.from) ?? [];
    if (!targets.includes(edge.to)) targets.push(edge.to);
    next.set(edge.from, targets);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (next.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return components.map((component) => shortestCircle(component[0]!, new Set(component), next)).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest path from `start` back to itself inside its component (breadth first). */
function shortestCircle(start: string, members: ReadonlySet<string>, next: ReadonlyMap<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const target of next.get(queue[i]!) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = queue[i]!; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, queue[i]!);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
