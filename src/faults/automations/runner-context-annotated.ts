import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';
import { isObject } from '../support/http.js';

export const runnerContextAnnotated = defineFault({
  name: 'runner-context-annotated',
  description: 'Adds its own fields (`_receivedAt`, `_listenerId`) to the JSON body before handing it to the automation as context.',
  breaks: ['RUN-01', 'RUN-02', 'RUN-03'],
  ports: (deps) => {
    const inner = deps.runner;
    const runner: Runner = {
      run: (run) =>
        inner.run(isObject(run.context) ? { ...run, context: { ...run.context, _receivedAt: run.at, _listenerId: run.listenerId }, contextJson: undefined } : run),
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  },
});
