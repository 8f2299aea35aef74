/**
 * Stopping lives in src/stop/ (issue 46): outside it, no module makes its own AbortController, installs a
 * signal, exit or parent-gone handler, or composes signals with `AbortSignal.any` (on Node 20 that keeps
 * every signal composed with a long-lived one alive: the stop room composes run-level signals only), but
 * for the named exceptions below: the processes' own entry files (each is a process of its own, with
 * nobody above it to stop it) and the per-request controllers of the HTTP transports (one per request,
 * gone with it). A new one fails here with its file and line; what it wants is in the stop room
 * (a run scope, `openStop`, `onStopSignals`, `registerFinalizer`, `within`).
 *
 * Read with TypeScript's parser, so a comment or a string that names one is none.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { sourceFiles } from './import-graph.js';

type Kind = 'controller' | 'handler' | 'composed signal';

/** The process events that stop or end something: a handler for one is stopping, and so the stop room's. */
const STOP_EVENTS = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGBREAK', 'exit', 'beforeExit', 'disconnect']);
const ADD_LISTENER = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);

/** Each file allowed its own, with what and why. */
const EXCEPTIONS: Record<string, { kinds: readonly Kind[]; why: string }> = {
  'src/image/entrypoint.ts': { kinds: ['handler'], why: "the image's entry, PID 1 of its container: without its own handlers docker stop's SIGTERM would be ignored" },
  'src/action/run.ts': { kinds: ['handler'], why: "the GitHub Action's step script, a process of its own: it passes the runner's cancel signals on to the harness it started" },
  'src/load/embedded-child.ts': {
    kinds: ['handler'],
    why: "the embedded reference's child process for `load`: it ignores the terminal's Ctrl-C (its parent stops it once the report is written) and ends when its parent is gone",
  },
  'src/mutation/runner/worker.ts': { kinds: ['handler'], why: "a fault runner's worker process entry: it ends when its parent is gone" },
  'src/load/load-worker.ts': { kinds: ['controller'], why: "a load worker thread's entry: its parent's interrupt and halt arrive as messages (an AbortSignal cannot cross threads) and become this thread's two stops" },
  'src/client/transport-attempt.ts': { kinds: ['controller'], why: "the client transport's per-request controller: the request's timeout and close() cutting it" },
  'src/client/load-fetch.ts': { kinds: ['controller'], why: "the load priming client's per-request controller: the request's timeout and the run's stop" },
};

/** Every controller made and every stop handler installed in `text`: kind, line and what it is. */
function stopMachinery(text: string): Array<{ kind: Kind; line: number; what: string }> {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Array<{ kind: Kind; line: number; what: string }> = [];
  const at = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AbortController') {
      found.push({ kind: 'controller', line: at(node), what: 'new AbortController()' });
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AbortSignal' && node.name.text === 'any') {
      // Node 20 keeps every signal composed with a long-lived one alive: only the stop room composes, run-level signals only.
      found.push({ kind: 'composed signal', line: at(node), what: 'AbortSignal.any' });
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'process' &&
      ADD_LISTENER.has(node.expression.name.text)
    ) {
      const event = node.arguments[0];
      const name = event !== undefined && ts.isStringLiteralLike(event) ? event.text : undefined;
      // An event named by a variable may be any: it counts. `once` counts whatever it waits for.
      if (name === undefined || STOP_EVENTS.has(name) || node.expression.name.text === 'once') {
        found.push({ kind: 'handler', line: at(node), what: `process.${node.expression.name.text}(${name === undefined ? event?.getText(source) : `'${name}'`})` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: stopping stays in src/stop/', () => {
  const root = packageRoot();
  const found = sourceFiles(join(root, 'src')).flatMap((file) =>
    stopMachinery(readFileSync(file, 'utf8')).map((hit) => ({ ...hit, file: relative(root, file) })),
  );

  test('outside src/stop/, no module makes its own AbortController, installs a signal or exit handler or composes signals, but the named exceptions', () => {
    const wrong = found
      .filter((hit) => !hit.file.startsWith('src/stop/') && !(EXCEPTIONS[hit.file]?.kinds.includes(hit.kind) ?? false))
      .map((hit) => `${hit.file}:${hit.line} ${hit.what}`);
    expect(wrong).toEqual([]);
  });

  test('every exception is still needed (a stale one would let a new module in unseen)', () => {
    const stale = Object.entries(EXCEPTIONS).flatMap(([file, { kinds }]) => kinds.filter((kind) => !found.some((hit) => hit.file === file && hit.kind === kind)).map((kind) => `${file} (${kind})`));
    expect(stale).toEqual([]);
  });

  test('the scan sees what it is for, and not a comment or a string', () => {
    const text = [
      'const a = new AbortController();',
      'const both = AbortSignal.any([a.signal, b]);',
      "process.on('SIGINT', stop);",
      "process.once('message', read);",
      "process.on('exit', last);",
      'process.on(signal, handler);',
      "process.on('message', read);",
      "// process.on('SIGTERM', stop); new AbortController()",
      "const s = \"process.on('SIGINT', x)\";",
    ].join('\n');
    expect(stopMachinery(text).map((hit) => `${hit.line} ${hit.kind} ${hit.what}`)).toEqual([
      '1 controller new AbortController()',
      '2 composed signal AbortSignal.any',
      "3 handler process.on('SIGINT')",
      "4 handler process.once('message')",
      "5 handler process.on('exit')",
      '6 handler process.on(signal)',
    ]);
  });
});
