/**
 * Every flag of `serve`, one row each like run's (run-options.ts), and the handler's options type derived
 * from them: apart from serve.ts so that serve-handler.ts, which serve.ts loads lazily, takes its type from
 * here and not back from the file that loads it.
 */
import { DEFAULT_SECRET_DOMAIN } from '../../defaults.js';
import { booleanRow, integerRow, textRow, type OptionRow, type OptionValues } from '../option-grammar.js';
import { SHARED_OPTIONS } from '../shared-options.js';

/** Every flag of `serve`, one row each: yargs reads it for parsing, --help and ACCESS_CONFORMANCE_<FLAG>. */
export const SERVE_OPTIONS = {
  seed: SHARED_OPTIONS.seed,
  port: integerRow({ default: 0, min: 0, max: 65_535, describe: 'Port to listen on (0 = any free port)' }),
  host: textRow({ default: '127.0.0.1', describe: 'Address to listen on' }),
  out: SHARED_OPTIONS.out,
  'profile-out': textRow({
    describe: 'Where to write the target profile (it holds the sandbox secrets; written mode 0600); default: sandbox.target.json in --out',
  }),
  hooks: booleanRow({ describe: 'Offer the test hooks (clock, runs) under /__hooks/v1' }),
  'public-url': textRow({ describe: 'Base URL written to the profile when clients reach the server at another address (NAT, container)' }),
  'jwks-host': textRow({ describe: "Host in the JWT listener's JWKS URL, as this server reaches the machine serving it (default 127.0.0.1)" }),
  'jwks-url': textRow({
    describe:
      "JWKS URL of the JWT listener (`jwt`): your own, so webhooks signed with your keys are accepted. https (system CAs, the sandbox's local CA and --jwks-ca); plain http only on a loopback address (127.0.0.1, [::1], localhost), else a usage error",
  }),
  'jwks-ca': textRow({ describe: 'PEM file of a private CA to trust for --jwks-url (and the x-jwks-url hook) besides the system CAs' }),
  'secret-domain': textRow({
    default: DEFAULT_SECRET_DOMAIN,
    describe: 'Service-domain segment of the Client Secrets (the official TypeScript and Python SDKs refuse any other than the default)',
  }),
  tls: booleanRow({ describe: 'Serve the API over HTTPS; the local CA is written next to the profile (tls.caFile) and its path printed' }),
  fault: SHARED_OPTIONS.fault,
  'list-faults': booleanRow({ describe: 'Print every fault --fault accepts (name, area, the requirements it breaks, what it does wrong) and exit' }),
  'list-variants': booleanRow({
    describe: 'Print every legitimate variant and stack --fault also accepts (name, area, the SHOULD checks it warns on, the reading it takes and the stacks that take it) and exit',
  }),
  'list-mistakes': booleanRow({
    describe: "Print every client mistake the sandbox names in a refusal (the answer's \"mistake\" code, what it explains, the sentence) and exit",
  }),
  verbose: booleanRow({ describe: 'A console line for every request, not only for the refused ones' }),
  quiet: SHARED_OPTIONS.quiet,
  'state-dir': textRow({
    describe:
      'Keep the tenant, the idempotency records, the runs and the clock in a database under this directory: a restart with the same DIR serves the same tenant (the profile stays valid) and answers 409 to every event ID accepted within 7 days; a 200 is sent only once its record is on disk. One serve per DIR',
  }),
  'state-repair': booleanRow({
    describe:
      'With --state-dir: when DIR cannot be proved whole (a damaged or cut log, a damaged table), keep what can be proved instead of refusing it: damaged files go to DIR/damaged-<time>/, and serve says how many records it dropped before it serves',
  }),
  timeout: SHARED_OPTIONS.timeout,
  'max-duration': SHARED_OPTIONS['max-duration'],
} as const satisfies Record<string, OptionRow<unknown>>;

export type ServeOptions = OptionValues<typeof SERVE_OPTIONS>;
