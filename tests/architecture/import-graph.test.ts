/**
 * The import graph's reader and its circle finder, on texts and graphs made here: the rooms test is only
 * as good as what they see (a type-only or lazy import is an edge; a comment is not).
 */
import { describe, expect, test } from 'vitest';
import { importsOf, moduleCycles, type ImportEdge } from './import-graph.js';

describe('import graph reader', () => {
  test('reads value, type-only, lazy and type-position imports, and re-exports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C, type D } from './c.js';",
      "import { type E, e } from './e.js';",
      "export { f } from './f.js';",
      "export type { G } from './g.js';",
      "import './side-effect.js';",
      'const lazy = () => import(\'./lazy.js\');',
      "let typed: import('./typed.js').T;",
      'import {\n  h,\n  type H,\n} from \'./multi-line.js\';',
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { specifier: './a.js', typeOnly: false, lazy: false },
      { specifier: './b.js', typeOnly: true, lazy: false },
      { specifier: './c.js', typeOnly: true, lazy: false },
      { specifier: './e.js', typeOnly: false, lazy: false },
      { specifier: './f.js', typeOnly: false, lazy: false },
      { specifier: './g.js', typeOnly: true, lazy: false },
      { specifier: './side-effect.js', typeOnly: false, lazy: false },
      { specifier: './lazy.js', typeOnly: false, lazy: true },
      { specifier: './typed.js', typeOnly: true, lazy: false },
      { specifier: './multi-line.js', typeOnly: false, lazy: false },
    ]);
  });

  test('a comment or a string is no import', () => {
    const text = [
      "/** What {@link import('./doc.js').thing} returns; import { x } from './in-comment.js'; */",
      "// const later = await import('./line-comment.js');",
      "const example = \"import { y } from './in-string.js'\";",
      "const template = `await import('./in-template.js')`;",
    ].join('\n');
    expect(importsOf(text)).toEqual([]);
  });
});

describe('import circles', () => {
  const edge = (from: string, to: string, typeOnly = false, lazy = false): ImportEdge => ({ from, to, typeOnly, lazy });

  test('a circle closed by a type-only or a lazy import counts, and is named from its first module', () => {
    const edges = [
      edge('src/a.ts', 'src/b.ts'),
      edge('src/b.ts', 'src/a.ts', true),
      edge('src/c/x.ts', 'src/c/y.ts', false, true),
      edge('src/c/y.ts', 'src/c/z.ts'),
      edge('src/c/z.ts', 'src/c/x.ts', true),
      edge('src/d.ts', 'src/a.ts'),
      edge('src/d.ts', 'node:fs'),
    ];
    expect(moduleCycles(edges)).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/a.ts'],
      ['src/c/x.ts', 'src/c/y.ts', 'src/c/z.ts', 'src/c/x.ts'],
    ]);
  });

  test('one circle per tangle, by its shortest way round; a module importing itself is one too', () => {
    const edges = [
      edge('src/a.ts', 'src/b.ts'),
      edge('src/b.ts', 'src/c.ts'),
      edge('src/c.ts', 'src/a.ts'),
      edge('src/b.ts', 'src/a.ts'),
      edge('src/self.ts', 'src/self.ts'),
    ];
    expect(moduleCycles(edges)).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/a.ts'],
      ['src/self.ts', 'src/self.ts'],
    ]);
  });

  test('a graph without circles has none', () => {
    expect(moduleCycles([edge('src/a.ts', 'src/b.ts'), edge('src/b.ts', 'src/c.ts', true), edge('src/a.ts', 'src/c.ts', false, true)])).toEqual([]);
  });
});
