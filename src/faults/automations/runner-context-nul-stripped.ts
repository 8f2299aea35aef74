import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

/** The value with U+0000 removed from every string, keys included. */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\u0000/g, '');
  if (Array.isArray(value)) return value.map(withoutNul);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [withoutNul(key) as string, withoutNul(inner)]));
  }
  return value;
}

export const runnerContextNulStripped = defineFault({
  name: 'runner-context-nul-stripped',
  description: 'Stores the context where text cannot hold U+0000 (as PostgreSQL text and jsonb cannot) and drops it: `"a\\u0000b"` reaches the automation as `"ab"`.',
  breaks: ['RUN-X05'],
  ports: (deps) => {
    const inner = deps.runner;
    const runner: Runner = {
      run: (run) => {
        const text = run.contextJson ?? JSON.stringify(run.context);
        // Only bodies holding a NUL change; the rest keep their exact text.
        if (!/\\u0000/i.test(text ?? '')) return inner.run(run);
        return inner.run({ ...run, context: withoutNul(run.context), contextJson: undefined });
      },
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  },
});
