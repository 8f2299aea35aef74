/**
 * What can be checked of the k6 scripts without k6 (the k6 lane, k6-lane.test.ts and k6-segments.test.ts,
 * runs them under a real one): they type-check against @types/k6 (`tsc -p load/tsconfig.json`), they bundle with esbuild as
 * ES2017 ES modules with k6's modules external, they import only k6 modules that exist in v0.48
 * (no k6/experimental), and their source uses no syntax newer than ES2017.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOAD = `${ROOT}load/`;
const SCRIPTS = readdirSync(LOAD).filter((f) => f.endsWith('.js')).sort();
const LIBS = readdirSync(`${LOAD}lib/`).filter((f) => f.endsWith('.js')).sort();
/** k6 modules present in v0.48 and kept in every later version. */
const K6_MODULES = new Set(['k6', 'k6/http', 'k6/crypto', 'k6/data', 'k6/metrics', 'k6/execution']);

describe('k6 scripts', () => {
  it('are the five scenarios', () => {
    expect(SCRIPTS).toEqual(['soak.js', 'token.js', 'webhook-duplicates.js', 'webhook-hmac.js', 'webhook-jwt.js']);
  });

  it('type-check with @types/k6 (tsc -p load/tsconfig.json)', async () => {
    const tsc = `${ROOT}node_modules/typescript/bin/tsc`;
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', `${LOAD}tsconfig.json`, '--noEmit'], { cwd: ROOT }).then(
      () => ({ code: 0, out: '' }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, out: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
    );
    expect(result.out).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  for (const script of SCRIPTS) {
    it(`${script} bundles as an ES2017 module and imports only k6 v0.48 modules`, async () => {
      const result = await build({
        entryPoints: [`${LOAD}${script}`],
        bundle: true,
        format: 'esm',
        target: 'es2017',
        platform: 'neutral',
        external: ['k6', 'k6/*'],
        write: false,
        metafile: true,
        logLevel: 'silent',
        absWorkingDir: ROOT,
      });
      expect(result.errors).toEqual([]);
      const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports);
      const external = imports.filter((i) => i.external).map((i) => i.path);
      expect(external.length).toBeGreaterThan(0);
      for (const path of external) expect(K6_MODULES.has(path), `${script} imports ${path}`).toBe(true);
      // Everything else resolves inside load/ (no remote jslib import, no node_modules).
      for (const input of Object.keys(result.metafile.inputs)) expect(input.startsWith('load/')).toBe(true);
      expect(result.outputFiles[0].text).toContain('export');
    });
  }

  it('use no syntax newer than ES2017 (no ?., ??, logical assignment, private #names, bigint)', () => {
    const forbidden = new Map<ts.SyntaxKind, string>([
      [ts.SyntaxKind.QuestionDotToken, '?.'],
      [ts.SyntaxKind.QuestionQuestionToken, '??'],
      [ts.SyntaxKind.QuestionQuestionEqualsToken, '??='],
      [ts.SyntaxKind.BarBarEqualsToken, '||='],
      [ts.SyntaxKind.AmpersandAmpersandEqualsToken, '&&='],
      [ts.SyntaxKind.PrivateIdentifier, '#private'],
      [ts.SyntaxKind.BigIntLiteral, 'bigint'],
    ]);
    const found: string[] = [];
    for (const file of [...SCRIPTS, ...LIBS.map((f) => `lib/${f}`)]) {
      const text = readFileSync(`${LOAD}${file}`, 'utf8');
      const scanner = ts.createScanner(ts.ScriptTarget.ESNext, true, ts.LanguageVariant.Standard, text);
      for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
        const name = forbidden.get(kind);
        if (name) found.push(`${file}: ${name} at ${scanner.getTokenPos()}`);
      }
      // Object rest/spread in literals is ES2018; k6 0.48 handles it, but keep to ES2017 anyway.
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, false, ts.ScriptKind.JS);
      const visit = (node: ts.Node): void => {
        if (ts.isSpreadAssignment(node)) found.push(`${file}: object spread`);
        if (ts.isForOfStatement(node) && node.awaitModifier) found.push(`${file}: for await`);
        if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) && node.asteriskToken) {
          if (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) found.push(`${file}: async generator`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });

  it('the syntax check finds what it looks for', () => {
    const scanner = ts.createScanner(ts.ScriptTarget.ESNext, true, ts.LanguageVariant.Standard, 'a?.b ?? c');
    const kinds: ts.SyntaxKind[] = [];
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) kinds.push(kind);
    expect(kinds).toContain(ts.SyntaxKind.QuestionDotToken);
    expect(kinds).toContain(ts.SyntaxKind.QuestionQuestionToken);
  });
});
