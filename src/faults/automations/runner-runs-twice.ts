import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const runnerRunsTwice = defineFault({
  name: 'runner-runs-twice',
  description: 'Runs the automation twice per accepted event (a retry after a run that had succeeded).',
  breaks: ['RUN-01', 'RUN-02', 'RUN-03', 'RUN-06', 'IDEM-06'],
  ports: (deps) => {
    const inner = deps.runner;
    const runner: Runner = {
      run: async (run) => {
        await inner.run(run);
        await inner.run({ ...run });
      },
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  },
});
