import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const runNotStarted = defineFault({
  name: 'run-not-started',
  description: 'Answers 200 but never starts the automation (the run is queued and lost).',
  breaks: ['RUN-01', 'RUN-02', 'RUN-03', 'RUN-06', 'IDEM-06'],
  ports: (deps) => {
    const runner: Runner = { run: () => undefined, list: (listenerId) => deps.runner.list(listenerId) };
    return { runner };
  },
});
