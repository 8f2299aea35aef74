/**
 * Every flag of `run`, one row each (option-grammar.ts): the shared rows (shared-options.ts) and run's own.
 * yargs reads the table for parsing, --help and ACCESS_CONFORMANCE_<FLAG>; docs/running.md lists the
 * same table (tests/docs/flag-table.test.ts). parseRunArgs turns the parsed values into a checked plan.
 */
import type { NetworkRequest } from '../../containers/index.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_CONSECUTIVE_FAILURES, DEFAULT_MAX_OPERATIONS, DEFAULT_RETRY_AFTER_CAP_MS } from '../../defaults.js';
import { HarnessError } from '../../errors.js';
import { REPORTER_NAMES, isReporterName, type ReporterName } from '../../reporters/names.js';
import { parseRate } from '../../values.js';
import type { ClientSettings } from '../../client/settings.js';
import { booleanRow, choiceRow, clientRow, clientSettings, customRow, durationRow, integerRow, listRow, textRow, type OptionRow, type OptionValues } from '../option-grammar.js';
import { SHARED_OPTIONS, durationText } from '../shared-options.js';

const reporters: OptionRow<ReporterName[]> = {
  yargs: {
    type: 'string',
    array: true,
    describe: `Reports to write besides the console: ${REPORTER_NAMES.join(', ')}; repeatable or comma-separated. e.g. --reporter json --reporter html`,
  },
  kind: 'list',
  parse: (raw, flag) =>
    listRow({ describe: '' }).parse(raw, flag).map((name) => {
      if (!isReporterName(name)) throw usage(`unknown reporter "${name.slice(0, 40)}"; available: ${REPORTER_NAMES.join(', ')}`, flag);
      return name;
    }),
};

export const RUN_OPTIONS = {
  profile: SHARED_OPTIONS.profile,
  openapi: textRow({
    describe:
      'The service\'s OpenAPI description (YAML or JSON file, or an http(s) URL fetched with --timeout), replacing the profile\'s "openapi": its list and search operations are checked one by one and the description itself is checked (ruling 34); operations that create, change or delete are never called. e.g. --openapi service.openapi.yaml',
  }),
  plan: booleanRow({
    describe:
      'Print the run\'s operations and send nothing to them: each call with the requests it would send (method, the path as sent, where the page size goes, the body) and each operation it will not call, with why; exit 0. A description given as a URL is still fetched (one GET of the document). e.g. run --profile target.json --plan',
  }),
  'allow-operation': listRow({
    describe:
      'Call an operation that ruling 35 leaves in doubt (a paginated POST not named a search or list, with no word that names a change), named as METHOD path or by its operation ID, comma-separated or repeated; the description and the profile cannot do this. Operations that change data are never called. e.g. --allow-operation "POST /api/v1/legacy/find"',
  }),
  partial: booleanRow({
    describe:
      'Certify a partial implementation: an operation whose valid first call answers 404 or 501 (and that the profile\'s "scope" does not name) is reported not implemented, its checks neither passed nor failed; the verdict says for how many operations the target is conformant, every report and the attestation name the scope, and the run prints the profile "scope" that pins what it found. e.g. run --openapi service.yaml --partial',
  }),
  only: listRow({ describe: 'Check only these requirement IDs or globs, comma-separated or repeated; a pattern that matches no requirement is an error. e.g. --only "WH-HMAC-*,TOK-03"' }),
  skip: listRow({ describe: 'Leave out these IDs or globs (applied after --only); a pattern that matches no requirement is an error. e.g. --skip "IDEM-*"' }),
  strict: SHARED_OPTIONS.strict,
  seed: SHARED_OPTIONS.seed,
  timeout: SHARED_OPTIONS.timeout,
  'max-duration': SHARED_OPTIONS['max-duration'],
  'max-consecutive-failures': integerRow({
    default: DEFAULT_MAX_CONSECUTIVE_FAILURES,
    min: 0,
    max: 1_000_000,
    describe:
      'Give up after this many requests in a row timed out, could not connect or were refused by a rate limit: the remaining checks are recorded as errored at once. 0 never gives up. e.g. --max-consecutive-failures 20',
  }),
  'max-operations': integerRow({
    default: DEFAULT_MAX_OPERATIONS,
    min: 1,
    max: 1_000_000,
    describe:
      'Most list and search operations of the OpenAPI description the run checks one by one; a description that plans more stops the run before its first check (exit 2, RUN_TOO_LARGE, saying how many operations and requests it planned). e.g. --max-operations 5000',
  }),
  'retry-after-cap': clientRow(
    durationRow({
      default: durationText(DEFAULT_RETRY_AFTER_CAP_MS),
      zeroMeansOff: true,
      maxMs: 3_600_000,
      describe:
        'Longest 429 Retry-After the run waits for (within the request timeout and the run deadline); 0 never waits. A target asking for more is reported as rate limiting. e.g. --retry-after-cap 30s',
    }),
    'retryAfterCapMs',
  ),
  concurrency: integerRow({
    default: DEFAULT_CONCURRENCY,
    min: 1,
    max: 1024,
    describe: 'Checks in flight at once (a check pausing between two polls lends its place meanwhile). Clock-moving checks always run alone, last. e.g. --concurrency 8',
  }),
  'rate-limit': clientRow(
    customRow({
      tag: 'rate',
      parse: (value, flag) => parseRate(value, { flag }),
      describe: 'Cap requests to the target at N per second across the run (429 Retry-After is honoured). e.g. --rate-limit 20/s',
    }),
    'rateLimit',
  ),
  baseline: textRow({
    describe: 'JSON file of expected failures (a list of IDs, or a previous json report): they do not fail the run; ones that now pass are reported. e.g. --baseline known-failures.json',
  }),
  reporter: reporters,
  out: SHARED_OPTIONS.out,
  har: textRow({ describe: 'Also write every request and answer of the run as HAR 1.2 (redacted), for browser devtools. e.g. --har reports/run.har' }),
  fault: SHARED_OPTIONS.fault,
  image: textRow({ describe: 'Check an implementation shipped as a local container image (Docker needed); it writes its own profile. e.g. --image my-impl:1.2' }),
  'image-env': listRow({ describe: 'Environment variable for the image, K=V, repeatable. e.g. --image-env LOG_LEVEL=debug' }),
  'image-port': integerRow({ min: 1, max: 65_535, describe: 'Port the image listens on (default: chosen by the harness). e.g. --image-port 8080' }),
  'image-network': choiceRow({
    choices: ['auto', 'host', 'bridge'],
    default: 'auto',
    describe:
      'How the image\'s container is networked: host (shares this machine\'s network), bridge (a mapped port; it reaches the harness as host.docker.internal), or auto: host on a local Linux engine, bridge otherwise.',
  }),
  'image-startup-timeout': durationRow({ default: '60s', describe: 'How long the image may take to write its profile and answer. e.g. --image-startup-timeout 2m' }),
  'keep-container': booleanRow({ describe: 'Leave the image\'s container running after the run (for debugging); its ID is printed.' }),
  // run --attest (docs/certify.md): the verdict as a signed in-toto attestation beside report.json.
  attest: booleanRow({
    describe:
      'Also write <out>/attestation.sigstore.json: the verdict as an in-toto test-result attestation in a Sigstore bundle, report.json bound by its digest (json reporter implied). Signed with --signing-key, else keyless through Sigstore (the CI\'s OIDC token, Fulcio, Rekor). Check it with `verify`.',
  }),
  'signing-key': textRow({ describe: 'PEM private key (ECDSA P-256 or Ed25519) that signs the attestation, or {"env": "NAME"} with the PEM in that variable. e.g. --signing-key signing.pem' }),
  subject: SHARED_OPTIONS.subject,
  'fulcio-url': textRow({ default: 'https://fulcio.sigstore.dev', describe: 'Keyless --attest: the Fulcio certificate authority that certifies the OIDC identity.' }),
  'rekor-url': textRow({ default: 'https://rekor.sigstore.dev', describe: 'Keyless --attest: the Rekor transparency log the signature is entered in.' }),
} as const satisfies Record<string, OptionRow<unknown>>;

export const RUN_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['$0 run', 'check the embedded reference implementation (the out-of-the-box run)'],
  ['$0 run --profile target.json --reporter json --reporter html', 'check a deployment, write reports/report.json and reports/report.html'],
  ['$0 run --profile target.json --only "WH-HMAC-*" --strict', 'only the HMAC webhook checks, SHOULD failures fail the run'],
  ['$0 run --profile target.json --plan', 'what the run would send to each operation, and what it will never call and why (nothing is sent)'],
  ['$0 run --fault secret-wrong-prefix', 'the embedded reference with a fault: the run must fail'],
  ['$0 run --image my-impl:1.2 --image-env MODE=test', 'start a container image and check it'],
  ['ACCESS_CONFORMANCE_PROFILE=target.json $0 run', 'every flag also comes from ACCESS_CONFORMANCE_<FLAG>'],
  [
    `$0 run --profile target.json --attest --signing-key signing.pem --subject ghcr.io/acme/access@sha256:${'4f1c'.padEnd(60, '0')}93e9 --out certified`,
    'certify a release: certified/attestation.sigstore.json beside report.json, checked with `verify` (docs/certify.md)',
  ],
];

/** The parsed values of the table: what the handler receives (one typed object, keyed in camelCase). */
export type RunOptions = OptionValues<typeof RUN_OPTIONS>;

export type TargetPlan =
  | { kind: 'profile'; path: string }
  | { kind: 'embedded'; faults: string[] }
  | { kind: 'image'; image: string; env: Record<string, string>; port?: number; network: NetworkRequest; startupTimeoutMs: number; keepContainer: boolean };

/** The rows that say what to check: they become the plan's `target`. */
type TargetFlags = 'profile' | 'image' | 'fault' | 'imageEnv' | 'imagePort' | 'imageNetwork' | 'imageStartupTimeout' | 'keepContainer';
/** The rows tagged for the client: they travel as the plan's `client`, whole. */
type ClientFlags = 'timeout' | 'retryAfterCap' | 'rateLimit';

/**
 * The run's parsed values with the target resolved and the client's settings gathered: the rest pass on as
 * parsed (max-duration in ms, reporters checked, etc.).
 */
export type RunPlan = Omit<RunOptions, TargetFlags | ClientFlags> & {
  target: TargetPlan;
  /** How the run's client talks to the target: handed whole to the engine, which hands it to the client. */
  client: ClientSettings & { timeoutMs: number };
};

function usage(message: string, field: string, hint?: string): HarnessError {
  return new HarnessError('USAGE', message, { field, ...(hint ? { hint } : {}) });
}

function parseEnvPairs(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of values) {
    const text = String(raw);
    const eq = text.indexOf('=');
    if (eq <= 0) throw usage(`--image-env takes K=V (got "${text}")`, '--image-env');
    env[text.slice(0, eq)] = text.slice(eq + 1);
  }
  return env;
}

export function parseRunArgs(options: RunOptions): RunPlan {
  const { profile, image, fault, imageEnv, imagePort, imageNetwork, imageStartupTimeout, keepContainer, timeout, retryAfterCap: _cap, rateLimit: _rate, ...rest } = options;
  if (profile !== undefined && image !== undefined) {
    throw usage('--profile and --image both name a target; give one', '--image', 'an image writes its own profile');
  }
  if (fault.length > 0 && (profile !== undefined || image !== undefined)) {
    throw usage('--fault only applies to the embedded reference (run without --profile and --image)', '--fault');
  }
  if (!rest.attest && (rest.signingKey !== undefined || rest.subject !== undefined || options.fulcioUrl !== RUN_OPTIONS['fulcio-url'].default || options.rekorUrl !== RUN_OPTIONS['rekor-url'].default)) {
    throw usage('--signing-key, --subject, --fulcio-url and --rekor-url need --attest', '--attest');
  }
  if (rest.signingKey !== undefined && (options.fulcioUrl !== RUN_OPTIONS['fulcio-url'].default || options.rekorUrl !== RUN_OPTIONS['rekor-url'].default)) {
    throw usage('--fulcio-url and --rekor-url are for keyless signing; --signing-key signs without them', '--signing-key');
  }
  if (image === undefined && (imageEnv.length > 0 || imagePort !== undefined || keepContainer || imageNetwork !== 'auto')) {
    throw usage('--image-env, --image-port, --image-network and --keep-container need --image', '--image');
  }
  let target: TargetPlan;
  if (image !== undefined) {
    target = {
      kind: 'image',
      image,
      env: parseEnvPairs(imageEnv),
      ...(imagePort === undefined ? {} : { port: imagePort }),
      network: imageNetwork,
      startupTimeoutMs: imageStartupTimeout,
      keepContainer,
    };
  } else if (profile !== undefined) {
    target = { kind: 'profile', path: profile };
  } else {
    target = { kind: 'embedded', faults: fault };
  }
  return { ...rest, target, client: { ...clientSettings(RUN_OPTIONS, options), timeoutMs: timeout } };
}
