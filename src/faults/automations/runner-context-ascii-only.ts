import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

/** Replaces every character outside ASCII with `?`, in every string of the value (keys included). */
function asciiOnly(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/[^\x00-\x7f]/gu, '?');
  if (Array.isArray(value)) return value.map(asciiOnly);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [asciiOnly(key) as string, asciiOnly(inner)]));
  }
  return value;
}

export const runnerContextAsciiOnly = defineFault({
  name: 'runner-context-ascii-only',
  description: 'Passes the context through an ASCII-only channel: non-ASCII text in the body reaches the automation as `?`.',
  breaks: ['RUN-02'],
  ports: (deps) => {
    const inner = deps.runner;
    const runner: Runner = { run: (run) => inner.run({ ...run, context: asciiOnly(run.context), contextJson: undefined }), list: (listenerId) => inner.list(listenerId) };
    return { runner };
  },
});
