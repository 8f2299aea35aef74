/**
 * `access-conformance load`: the built-in open-model load driver, and `load prepare`, which signs a
 * webhook-JWT corpus for the k6 script load/webhook-jwt.js (k6 cannot sign EdDSA). The handler
 * (load-handler.ts) loads only when the command runs.
 *
 * Exit codes like k6's thresholds: 0 when every --threshold held, 1 when one was crossed, 2 for a usage or
 * harness error, 130 / 143 when SIGINT / SIGTERM stopped it (the partial report is still written and says
 * so; a second signal quits at once).
 */
import { defineCommand, withExamples } from '../command.js';
import { LOAD_EXAMPLES, LOAD_OPTIONS } from './load-options.js';

export const loadCommand = defineCommand({
  command: 'load [action]',
  describe: 'Load-test the webhook hot path (open model, latency from intended send times); `load prepare` signs a JWT corpus for k6',
  options: LOAD_OPTIONS,
  builder: (y, forHelp) => withExamples(y.positional('action', { type: 'string', choices: ['prepare'], describe: 'prepare: sign a webhook-jwt corpus for load/webhook-jwt.js' }), LOAD_EXAMPLES, forHelp),
  epilogue:
    'Exit codes: 0 every --threshold held (--strict adds errors<=0% and dropped<=0%); 1 one was crossed; 2 usage or harness error; 130 / 143 interrupted by SIGINT / SIGTERM ' +
    '(never 0: the report, written on every way out, says interrupted).',
  run: async (options, args) => (await import('./load-handler.js')).loadHandler(options, args),
});
