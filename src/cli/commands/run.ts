/**
 * `access-conformance run`: start or load the target, run the selected checks through the engine, write
 * the reports, and exit 0 (conformant), 1 (not conformant) or 2 (harness or usage error). The handler lives
 * in run-handler.ts and loads only when the command runs.
 */
import { debugLine } from '../../debug.js';
import { defineCommand, withExamples } from '../command.js';
import { tuneV8ForShortRun } from '../v8-footprint.js';
import { RUN_EXAMPLES, RUN_OPTIONS } from './run-options.js';

export const runCommand = defineCommand({
  command: 'run',
  describe: 'Check an implementation against the requirement catalogue (the embedded reference when no --profile or --image is given)',
  options: RUN_OPTIONS,
  builder: (y, forHelp) => withExamples(y, RUN_EXAMPLES, forHelp),
  epilogue:
    'Exit codes: 0 no MUST failed (and something was checked); 1 a MUST failed (or a SHOULD with --strict); 2 harness or usage error, ' +
    'including a check the harness could not decide when nothing failed; 130 / 143 interrupted by SIGINT / SIGTERM (the reports say so). ' +
    'Every flag also reads ACCESS_CONFORMANCE_<FLAG> (e.g. ACCESS_CONFORMANCE_RATE_LIMIT=20/s). See docs/running.md.',
  run: async (options) => {
    // Before the handler loads vitest and the reference: the young generation's size is set as they load.
    const flags = tuneV8ForShortRun();
    debugLine('cli', `V8 flags for a short run: ${flags.join(' ') || 'none (set by the user)'}`);
    return (await import('./run-handler.js')).runHandler(options);
  },
});
