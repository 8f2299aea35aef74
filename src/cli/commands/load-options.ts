/**
 * Every flag of `load` (and `load prepare`), declared once like run's: yargs reads this table for parsing,
 * --help and ACCESS_CONFORMANCE_<FLAG>. Defaults the driver applies itself (a flag left out means "the
 * driver's default") are quoted from LOAD_DEFAULTS, so --help and the driver cannot disagree.
 */
import type { Options } from 'yargs';
import { DEFAULT_ERROR_THRESHOLD, LOAD_DEFAULTS, WEBHOOK_JWT_MAX_EXP_SECONDS, SCENARIOS } from '../../load/constants.js';

export const LOAD_OPTIONS = {
  profile: { type: 'string', describe: 'Target profile (none: start the embedded reference for the run)' },
  scenario: { type: 'string', choices: [...SCENARIOS], default: 'webhook-hmac', describe: 'What to send' },
  rate: { type: 'string', describe: 'Arrivals per second (open model), with --duration; e.g. 500 or 500/s' },
  duration: { type: 'string', describe: 'How long to send, e.g. 10s, 2m, 1h' },
  stages: { type: 'string', describe: "Ramp instead of a constant rate: '30s:100,1m:500' (duration:rate, linear)" },
  connections: { type: 'number', describe: `Keep-alive connections to the target (default ${LOAD_DEFAULTS.connections})` },
  'max-in-flight': {
    type: 'number',
    describe: `Requests outstanding at once; arrivals beyond it are dropped and counted (default ${LOAD_DEFAULTS.maxInFlight})`,
  },
  'max-requests': { type: 'number', describe: 'Stop after this many requests' },
  'body-bytes': { type: 'number', describe: `Webhook body size in bytes, up to the target limit (default ${LOAD_DEFAULTS.bodyBytes})` },
  alg: { type: 'string', choices: ['RS256', 'ES256', 'EdDSA'], describe: 'webhook-jwt: which signing key of the listener' },
  listener: { type: 'string', choices: ['hmac', 'hmacSecond'], describe: 'HMAC listener of the profile (default hmac)' },
  'token-method': { type: 'string', choices: ['secret', 'assertion'], describe: 'token: grant method (default secret)' },
  corpus: { type: 'string', describe: 'webhook-jwt: replay a prepared corpus instead of signing during the run' },
  'dup-pool': { type: 'number', describe: `webhook-duplicates: accepted event IDs re-sent round-robin (default ${LOAD_DEFAULTS.dupPool})` },
  'page-size': { type: 'number', describe: `pages: page_size (default ${LOAD_DEFAULTS.pageSize})` },
  timeout: { type: 'string', describe: `Per-request timeout, priming and set-up included (default ${LOAD_DEFAULTS.timeoutMs / 1000}s)` },
  threshold: {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: `Exit 1 when crossed: 'p99<50ms', 'errors<0.1%', 'rate>=450' (repeatable). Without one naming errors, '${DEFAULT_ERROR_THRESHOLD}' applies ('errors<=100%' turns it off)`,
  },
  out: { type: 'string', describe: 'Report directory (default reports); with prepare: the corpus file' },
  seed: { type: 'string', describe: 'Seed of bodies and of the embedded reference' },
  quiet: { type: 'boolean', default: false, describe: 'No progress line each second' },
  count: { type: 'number', describe: 'prepare: requests in the corpus (≥ rate × duration of the k6 run)' },
  'exp-in': {
    type: 'number',
    describe: `prepare: seconds until the JWTs expire (60..${WEBHOOK_JWT_MAX_EXP_SECONDS}, default ${WEBHOOK_JWT_MAX_EXP_SECONDS})`,
  },
  'serve-jwks': { type: 'boolean', default: false, describe: "prepare: keep serving the listener's JWKS (profile serveJwks) until Ctrl-C or expiry" },
} as const satisfies Record<string, Options>;
