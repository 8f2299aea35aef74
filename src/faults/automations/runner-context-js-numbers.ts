import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const runnerContextJsNumbers = defineFault({
  name: 'runner-context-js-numbers',
  description: 'Hands the automation the parsed body re-serialised (JSON.parse, then JSON.stringify): integers beyond 2^53 and long decimals lose digits, -0 becomes 0, 1e400 becomes null.',
  breaks: ['RUN-X01', 'RUN-X02', 'RUN-X03', 'RUN-X04'],
  ports: (deps) => {
    const inner = deps.runner;
    const runner: Runner = { run: (run) => inner.run({ ...run, contextJson: undefined }), list: (listenerId) => inner.list(listenerId) };
    return { runner };
  },
});
