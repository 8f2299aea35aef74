/**
 * `access-conformance send`: sign and send one webhook to a listener of a profile, the way an external
 * system triggering an automation would, and print the answer. The request comes from the client
 * toolkit's builder (the suites' own), so `--break` spoils exactly one rule as the suites do.
 *
 * Exit codes: 0 the target answered 2xx (or --dry-run); 1 it answered another status; with --strict, 0
 * when it answered what service.md gives for the request sent (401 for --break signature), else 1; 2 bad
 * input or no answer (unreachable, TLS, timeout, --max-duration). The HMAC secret and the signing keys are never printed; --dry-run
 * shows the signature or JWT of that one request (bound to its event ID, timestamp and body).
 * The handler (send-handler.ts) loads only when the command runs.
 */
import { defineCommand, withExamples } from '../command.js';
import { BREAKS, SEND_EXAMPLES, SEND_OPTIONS } from './send-options.js';

export const sendCommand = defineCommand({
  command: 'send',
  describe: 'Sign and send one webhook to a listener of a profile (HMAC or JWT), print the answer',
  options: SEND_OPTIONS,
  builder: (y, forHelp) => withExamples(y, SEND_EXAMPLES, forHelp),
  epilogue: `Exit codes: 0 the target answered 2xx (or --dry-run); 1 another status; with --strict, 0 when the answer is the one service.md gives for the request sent (e.g. 401 for --break signature), else 1; 2 bad input, no answer or --max-duration reached. --break: ${Object.entries(BREAKS)
    .map(([name, what]) => `${name} (${what})`)
    .join('; ')}.`,
  run: async (options) => (await import('./send-handler.js')).sendHandler(options),
});
