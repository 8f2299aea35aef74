/**
 * `access-conformance serve`: the reference implementation with a generated tenant, for client developers
 * and for running the harness by hand. Writes the target profile, prints where things are (never a
 * secret), and stays up until SIGINT or SIGTERM. The handler (serve-handler.ts) loads only when it runs.
 */
import { defineCommand, withExamples } from '../command.js';
import { SERVE_OPTIONS } from './serve-options.js';

/** `serve --help`'s examples (tests/cli/help-examples.test.ts reads every command's). */
export const SERVE_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['$0 serve', 'the reference on a free port of 127.0.0.1; its profile goes to reports/sandbox.target.json'],
  ['$0 serve --port 8080 --hooks --profile-out sandbox.target.json', 'a fixed port with the test hooks, the profile in this folder for `run --profile sandbox.target.json`'],
  ['$0 serve --fault hmac-decoded-key', 'a reference that breaks one rule on purpose (--list-faults names them), to see a check fail'],
  ['$0 serve --state-dir .sandbox --max-duration 8h', 'keep the tenant and the accepted event IDs across restarts; stop after 8 hours'],
  ['$0 serve --jwks-url http://127.0.0.1:9000/jwks.json', "the JWT listener fetches your own JWKS (plain http on loopback only; https with --jwks-ca for a private CA)"],
];

export const serveCommand = defineCommand({
  command: 'serve',
  describe: 'Run the reference implementation with a generated tenant and write its target profile',
  options: SERVE_OPTIONS,
  builder: (y, forHelp) => withExamples(y, SERVE_EXAMPLES, forHelp),
  epilogue:
    'Once up, serve prints where things are, "inspector: <URL>" (a live page of the latest requests, on the same server), and last one JSON line for scripts, the only stdout line that starts with "{": {"ready":true,"baseUrl":…,"inspector":…,"profile":…}. ' +
    'Stops on SIGINT or SIGTERM (exit 0), or after --max-duration (exit 0). A signal while it starts (state folder, keys, listening) exits 130 / 143; a start-up that takes over 3 min, 2.',
  run: async (options) => (await import('./serve-handler.js')).serveHandler(options),
});
