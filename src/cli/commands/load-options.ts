/**
 * Every flag of `load` (and `load prepare`), one row each like run's (option-grammar.ts; the shared rows
 * from shared-options.ts): yargs reads this table for parsing, --help and ACCESS_CONFORMANCE_<FLAG>. The
 * driver's own defaults (LOAD_DEFAULTS, also what library callers of runLoad get) are the rows' defaults,
 * so --help and the driver cannot disagree.
 */
import { HarnessError } from '../../errors.js';
import { DEFAULT_ABORT_AFTER_MS, DEFAULT_ERROR_THRESHOLD, LOAD_DEFAULTS, defaultWorkers, STRICT_THRESHOLDS, WEBHOOK_JWT_MAX_EXP_SECONDS, SCENARIOS } from '../../load/constants.js';
import { parseStages, type Stage } from '../../load/parse.js';
import { parseListenAddress, parseRate } from '../../values.js';
import { booleanRow, choiceRow, customRow, durationRow, integerRow, listRow, textRow, type OptionRow, type OptionValues } from '../option-grammar.js';
import { SHARED_OPTIONS, durationText } from '../shared-options.js';

/** `load --help`'s examples (tests/cli/help-examples.test.ts reads every command's). */
export const LOAD_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['$0 load --rate 200 --duration 30s', '200 signed HMAC webhooks a second for 30 s against the embedded reference (a rate always needs a duration)'],
  ["$0 load --profile target.json --rate 500/s --duration 2m --threshold 'p99<50ms'", 'a deployment at 500/s; exit 1 when p99 latency reaches 50 ms'],
  ['$0 load --stages 30s:100,1m:500 --stream load.jsonl', 'ramp to 100/s over 30 s, then to 500/s over a minute; one JSON line a second'],
  ['$0 load --scenario webhook-jwt --alg EdDSA --rate 100 --duration 1m', 'JWT webhooks signed with the listener\'s Ed25519 key'],
  ['$0 load prepare --scenario webhook-jwt --profile target.json --count 6000 --out corpus.json', 'sign 6,000 webhook-jwt requests into a corpus for k6 (load/webhook-jwt.js)'],
];

/** Arrivals per second past which the schedule's prebuilt queues would not fit in memory. */
const MAX_RATE = 1_000_000;

export const LOAD_OPTIONS = {
  profile: SHARED_OPTIONS.profile,
  scenario: choiceRow({ choices: SCENARIOS, default: 'webhook-hmac', describe: 'What to send' }),
  rate: customRow({
    tag: 'rate',
    parse: (value, flag) => parseRate(value, { flag, max: MAX_RATE }),
    describe: 'Arrivals per second (open model), e.g. 500 or 500/s. Needs --duration: a rate alone is an error (or give --stages instead of both)',
  }),
  duration: durationRow({ describe: 'How long to send at --rate, e.g. 10s, 2m, 1h; needs --rate' }),
  stages: customRow<Stage[]>({
    tag: 'stages',
    parse: (value, flag) =>
      parseStages(value, flag).map((stage) => {
        if (stage.target > MAX_RATE) throw new HarnessError('USAGE', `${flag} rates must be at most ${MAX_RATE}/s (got ${stage.target})`, { field: flag });
        return stage;
      }),
    describe: "Ramp instead of a constant rate: '30s:100,1m:500' (duration:rate, linear)",
  }),
  connections: integerRow({ default: LOAD_DEFAULTS.connections, min: 1, max: 10_000, describe: 'Keep-alive connections to the target' }),
  'max-in-flight': integerRow({
    default: LOAD_DEFAULTS.maxInFlight,
    min: 1,
    max: 1_000_000,
    describe: 'Requests outstanding at once; arrivals beyond it are dropped and counted',
  }),
  workers: integerRow({
    default: defaultWorkers(),
    min: 1,
    max: 256,
    describe: 'Sending threads, each with its own connections and an exact share of the schedule (--connections and --max-in-flight stay totals, split evenly); default: the cores less one for a target on this machine',
  }),
  'max-requests': integerRow({ min: 1, max: Number.MAX_SAFE_INTEGER, describe: 'Stop after this many requests' }),
  'body-bytes': integerRow({ default: LOAD_DEFAULTS.bodyBytes, min: 2, max: 64 * 1024 * 1024, describe: 'Webhook body size in bytes, up to the target limit' }),
  alg: choiceRow({ choices: ['RS256', 'ES256', 'EdDSA'], describe: 'webhook-jwt: which signing key of the listener' }),
  listener: choiceRow({ choices: ['hmac', 'hmacSecond'], describe: 'HMAC listener of the profile (default hmac)' }),
  'token-method': choiceRow({ choices: ['secret', 'assertion'], describe: 'token: grant method (default secret)' }),
  corpus: textRow({ describe: 'webhook-jwt: replay a prepared corpus instead of signing during the run' }),
  'dup-pool': integerRow({ default: LOAD_DEFAULTS.dupPool, min: 1, max: 100_000, describe: 'webhook-duplicates: accepted event IDs re-sent round-robin' }),
  'page-size': integerRow({ default: LOAD_DEFAULTS.pageSize, min: 1, max: 100_000, describe: 'pages: page_size' }),
  timeout: SHARED_OPTIONS.timeout,
  'max-duration': SHARED_OPTIONS['max-duration'],
  threshold: listRow({
    describe: `Exit 1 when crossed: 'p99<50ms', 'errors<0.1%', 'rate>=450' (repeatable; ':abort' stops the run when crossed). Without one naming errors, '${DEFAULT_ERROR_THRESHOLD}' applies ('errors<=100%' turns it off); --strict adds ${STRICT_THRESHOLDS.map((t) => `'${t}'`).join(' and ')}`,
  }),
  'abort-on-fail': booleanRow({
    describe: "Stop the run as soon as a threshold is crossed (checked each second, past --abort-after), write every report and exit 1; 'rate' is checked at the end only. One threshold alone: end it with ':abort', e.g. 'p99<50ms:abort'",
  }),
  'abort-after': durationRow({
    minMs: 0,
    zeroMeansOff: true,
    describe: `Grace period of --abort-on-fail and ':abort' thresholds from the first send, so warm-up cannot trip them (default ${durationText(DEFAULT_ABORT_AFTER_MS)}; 0 = none)`,
  }),
  strict: SHARED_OPTIONS.strict,
  'metrics-listen': customRow({
    tag: 'host:port',
    parse: (value, flag) => parseListenAddress(value, { flag, code: 'LOAD_CONFIG' }),
    describe:
      'Serve Prometheus metrics at http://HOST:PORT/metrics while the load runs (requests by status, latency histogram, in flight, dropped, errors by kind). Binds only what you name: 127.0.0.1:9464, [::1]:9464, 0.0.0.0:9464; port 0 picks a free one (printed)',
  }),
  stream: textRow({
    describe:
      'Append one JSON line of aggregates a second to FILE (interval and running totals, latency, thresholds so far), written as each second closes so a killed run keeps what it measured. Schema: schemas/load-stream.schema.json',
  }),
  out: SHARED_OPTIONS.out,
  seed: SHARED_OPTIONS.seed,
  quiet: SHARED_OPTIONS.quiet,
  count: integerRow({ min: 1, max: 100_000_000, describe: 'prepare: requests in the corpus (≥ rate × duration of the k6 run)' }),
  'exp-in': durationRow({
    default: durationText(WEBHOOK_JWT_MAX_EXP_SECONDS * 1000),
    minMs: 60_000,
    maxMs: WEBHOOK_JWT_MAX_EXP_SECONDS * 1000,
    describe: 'prepare: how long until the JWTs expire (1m to 10m: service.md §5.4). e.g. --exp-in 5m',
  }),
  'serve-jwks': booleanRow({ describe: "prepare: keep serving the listener's JWKS (profile serveJwks) until Ctrl-C or expiry" }),
} as const satisfies Record<string, OptionRow<unknown>>;

export type LoadCliOptions = OptionValues<typeof LOAD_OPTIONS>;

/** Flags that only `load prepare` reads, and flags it does not. */
export function checkAction(action: string | undefined, given: ReadonlySet<string>): void {
  if (action === 'prepare') return;
  for (const flag of ['count', 'exp-in', 'serve-jwks']) {
    if (given.has(flag)) throw new HarnessError('USAGE', `--${flag} belongs to \`load prepare\``, { field: `--${flag}` });
  }
}
