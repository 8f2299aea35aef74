import type { Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const runnerContextLatin1 = defineFault({
  name: 'runner-context-latin1',
  description: 'Reads the body\'s bytes as Latin-1 before handing it on: raw non-ASCII UTF-8 text reaches the automation as mojibake (`é` as `Ã©`).',
  breaks: ['RUN-X06'],
  ports: (deps) => {
    const inner = deps.runner;
    const runner: Runner = {
      run: (run) => {
        if (run.contextJson === undefined) return inner.run(run);
        const mangled = Buffer.from(run.contextJson, 'utf8').toString('latin1');
        return inner.run({ ...run, context: JSON.parse(mangled) as unknown, contextJson: mangled });
      },
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  },
});
