/**
 * Every flag of `run`, declared once (vitest style): yargs reads this table for parsing, --help and the
 * ACCESS_CONFORMANCE_<FLAG> environment variables (main.ts turns on yargs .env), and docs/running.md
 * describes the same table. parseRunArgs turns the parsed values into a checked plan.
 */
import type { Options } from 'yargs';
import type { ClientSettings } from '../../client/settings.js';
import type { NetworkRequest } from '../../containers/index.js';
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '../../defaults.js';
import { splitPatterns } from '../../engine/selection.js';
import { CHECK_TIMEOUT_FACTOR } from '../../engine/limits.js';
import { HarnessError } from '../../errors.js';
import { MAX_TIMER_MS, parseDuration as parseDurationValue, parseInteger, parseRate } from '../../values.js';
import { REPORTER_NAMES, isReporterName, type ReporterName } from '../../reporters/names.js';

export const RUN_OPTIONS = {
  profile: {
    type: 'string',
    describe: 'Target profile (JSON) of the implementation to check. Without it, run starts the embedded reference with hooks on and checks that. e.g. --profile target.json',
  },
  only: {
    type: 'string',
    array: true,
    describe: 'Check only these requirement IDs or globs, comma-separated or repeated. e.g. --only "WH-HMAC-*,TOK-03"',
  },
  skip: {
    type: 'string',
    array: true,
    describe: 'Leave out these IDs or globs (applied after --only). e.g. --skip "IDEM-*"',
  },
  strict: {
    type: 'boolean',
    default: false,
    describe: 'SHOULD failures fail the run too (exit 1); without it they are warnings.',
  },
  seed: {
    type: 'string',
    describe:
      'Seed of every generated value (bodies, tenant data, names), scoped by each check\'s ID: the same seed sends the same bodies at any --concurrency. Event IDs stay fresh on purpose (a target remembers them for 7 days and refuses a repeat as a replay). Printed in the header, random when absent. e.g. --seed 5eed1234',
  },
  timeout: {
    type: 'string',
    default: String(DEFAULT_TIMEOUT_MS),
    describe: 'Per-request timeout: milliseconds, or with a unit (ms, s, m); a check may take up to 12 times this. e.g. --timeout 20000 or --timeout 20s',
  },
  'max-duration': {
    type: 'string',
    describe:
      'Deadline of the whole run (ms, s, m; a bare number is seconds); the checks not finished by then are recorded as errored and the reports written. ' +
      'Default: 30 s plus 0.5 s a selected check, at least 3 request timeouts, at most 2 min unless --timeout asks for more; printed in the header. e.g. --max-duration 10m',
  },
  'max-consecutive-failures': {
    type: 'number',
    default: 5,
    describe:
      'Give up after this many requests in a row timed out, could not connect or were refused by a rate limit: the remaining checks are recorded as errored at once. 0 never gives up. e.g. --max-consecutive-failures 20',
  },
  'retry-after-cap': {
    type: 'string',
    default: '10s',
    describe:
      'Longest 429 Retry-After the run waits for (within the request timeout and the run deadline); a target asking for more is reported as rate limiting. e.g. --retry-after-cap 30s',
  },
  concurrency: {
    type: 'number',
    default: DEFAULT_CONCURRENCY,
    describe: 'Checks in flight at once (waiting checks overlap). Clock-moving checks always run alone, last. e.g. --concurrency 8',
  },
  'rate-limit': {
    type: 'string',
    describe: 'Cap requests to the target at N per second across the run (429 Retry-After is honoured). e.g. --rate-limit 20/s',
  },
  baseline: {
    type: 'string',
    describe: 'JSON file of expected failures (a list of IDs, or a previous json report): they do not fail the run; ones that now pass are reported. e.g. --baseline known-failures.json',
  },
  reporter: {
    type: 'string',
    array: true,
    describe: `Reports to write besides the console: ${REPORTER_NAMES.join(', ')}; repeatable or comma-separated. e.g. --reporter json --reporter html`,
  },
  out: {
    type: 'string',
    default: 'reports',
    describe: 'Folder for report files. e.g. --out build/conformance',
  },
  har: {
    type: 'string',
    describe: 'Also write every request and answer of the run as HAR 1.2 (redacted), for browser devtools. e.g. --har reports/run.har',
  },
  fault: {
    type: 'string',
    array: true,
    describe: 'Embedded reference only: start it with a named fault (repeatable) to see checks fail. e.g. --fault secret-wrong-prefix',
  },
  image: {
    type: 'string',
    describe: 'Check an implementation shipped as a local container image (Docker needed); it writes its own profile. e.g. --image my-impl:1.2',
  },
  'image-env': {
    type: 'string',
    array: true,
    describe: 'Environment variable for the image, K=V, repeatable. e.g. --image-env LOG_LEVEL=debug',
  },
  'image-port': {
    type: 'number',
    describe: 'Port the image listens on (default: chosen by the harness). e.g. --image-port 8080',
  },
  'image-network': {
    type: 'string',
    choices: ['auto', 'host', 'bridge'],
    default: 'auto',
    describe:
      'How the image\'s container is networked: host (shares this machine\'s network), bridge (a mapped port; it reaches the harness as host.docker.internal), or auto: host on a local Linux engine, bridge otherwise.',
  },
  'image-startup-timeout': {
    type: 'string',
    default: '60s',
    describe: 'How long the image may take to write its profile and answer: seconds, or with a unit (ms, s, m). e.g. --image-startup-timeout 2m',
  },
  'keep-container': {
    type: 'boolean',
    default: false,
    describe: 'Leave the image\'s container running after the run (for debugging); its ID is printed.',
  },
} as const satisfies Record<string, Options>;

export const RUN_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['$0 run', 'check the embedded reference implementation (the out-of-the-box run)'],
  ['$0 run --profile target.json --reporter json --reporter html', 'check a deployment, write reports/report.json and reports/report.html'],
  ['$0 run --profile target.json --only "WH-HMAC-*" --strict', 'only the HMAC webhook checks, SHOULD failures fail the run'],
  ['$0 run --fault secret-wrong-prefix', 'the embedded reference with a fault: the run must fail'],
  ['$0 run --image my-impl:1.2 --image-env MODE=test', 'start a container image and check it'],
  ['ACCESS_CONFORMANCE_PROFILE=target.json $0 run', 'every flag also comes from ACCESS_CONFORMANCE_<FLAG>'],
];

/** What yargs hands over for the table above (kebab and camel aliases both exist; the camel ones are read). */
export interface RunArgs {
  profile?: string;
  only?: Array<string | number>;
  skip?: Array<string | number>;
  strict: boolean;
  seed?: string | number;
  timeout: string | number;
  maxDuration?: string | number;
  maxConsecutiveFailures: number;
  retryAfterCap: string | number;
  concurrency: number;
  rateLimit?: string | number;
  baseline?: string;
  reporter?: Array<string | number>;
  out: string;
  har?: string;
  fault?: Array<string | number>;
  image?: string;
  imageEnv?: Array<string | number>;
  imagePort?: number;
  imageNetwork: string;
  imageStartupTimeout: string | number;
  keepContainer: boolean;
}

export type TargetPlan =
  | { kind: 'profile'; path: string }
  | { kind: 'embedded'; faults: string[] }
  | { kind: 'image'; image: string; env: Record<string, string>; port?: number; network: NetworkRequest; startupTimeoutMs: number; keepContainer: boolean };

export interface RunPlan {
  target: TargetPlan;
  only: string[];
  skip: string[];
  strict: boolean;
  seed?: string;
  /** How the run's client talks to the target: handed whole to the engine, which hands it to the client. */
  client: ClientSettings & { timeoutMs: number };
  /** The run's deadline when given; else the engine derives one from the selection. */
  maxDurationMs?: number;
  /** 0: never give up. */
  maxConsecutiveFailures: number;
  concurrency: number;
  baselinePath?: string;
  reporters: ReporterName[];
  outDir: string;
  harPath?: string;
}

function usage(message: string, field: string, hint?: string): HarnessError {
  return new HarnessError('USAGE', message, { field, ...(hint ? { hint } : {}) });
}

/** `20`, `20/s` → 20. */
export function parseRateLimit(value: string | number): number {
  return parseRate(value, { flag: '--rate-limit' });
}

/** `60`, `60s`, `90000ms`, `2m` → milliseconds. A bare number means seconds. */
export function parseDuration(value: string | number, flag: string): number {
  return parseDurationValue(value, { flag, bare: 's' });
}

function parseEnvPairs(values: Array<string | number> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of values ?? []) {
    const text = String(raw);
    const eq = text.indexOf('=');
    if (eq <= 0) throw usage(`--image-env takes K=V (got "${text}")`, '--image-env');
    env[text.slice(0, eq)] = text.slice(eq + 1);
  }
  return env;
}

function networkRequest(value: string): NetworkRequest {
  // yargs already enforces the choices (ACCESS_CONFORMANCE_IMAGE_NETWORK becomes a flag too); this narrows
  // the type, and keeps parseRunArgs safe for callers that skip yargs.
  if (value === 'auto' || value === 'host' || value === 'bridge') return value;
  throw usage(`--image-network takes auto, host or bridge (got "${value}")`, '--image-network');
}

function positiveInteger(value: number, flag: string, max = 1024): number {
  return parseInteger(value, { flag, min: 1, max });
}

export function parseRunArgs(args: RunArgs): RunPlan {
  const faults = splitPatterns(args.fault);
  if (args.profile !== undefined && args.image !== undefined) {
    throw usage('--profile and --image both name a target; give one', '--image', 'an image writes its own profile');
  }
  if (faults.length > 0 && (args.profile !== undefined || args.image !== undefined)) {
    throw usage('--fault only applies to the embedded reference (run without --profile and --image)', '--fault');
  }
  if (args.image === undefined && (args.imageEnv?.length || args.imagePort !== undefined || args.keepContainer || args.imageNetwork !== 'auto')) {
    throw usage('--image-env, --image-port, --image-network and --keep-container need --image', '--image');
  }
  // A check may take CHECK_TIMEOUT_FACTOR request timeouts: that product must still be a valid timer.
  const timeoutMs = parseDurationValue(args.timeout ?? '', { flag: '--timeout', bare: 'ms', maxMs: Math.floor(MAX_TIMER_MS / CHECK_TIMEOUT_FACTOR) });
  const reporters = splitPatterns(args.reporter);
  for (const name of reporters) {
    if (!isReporterName(name)) throw usage(`unknown reporter "${name}"; available: ${REPORTER_NAMES.join(', ')}`, '--reporter');
  }
  let target: TargetPlan;
  if (args.image !== undefined) {
    target = {
      kind: 'image',
      image: args.image,
      env: parseEnvPairs(args.imageEnv),
      ...(args.imagePort === undefined ? {} : { port: positiveInteger(args.imagePort, '--image-port', 65_535) }),
      network: networkRequest(args.imageNetwork),
      startupTimeoutMs: parseDuration(args.imageStartupTimeout, '--image-startup-timeout'),
      keepContainer: args.keepContainer,
    };
  } else if (args.profile !== undefined) {
    target = { kind: 'profile', path: args.profile };
  } else {
    target = { kind: 'embedded', faults };
  }
  const seed = args.seed === undefined || String(args.seed).trim() === '' ? undefined : String(args.seed).trim();
  return {
    target,
    only: splitPatterns(args.only),
    skip: splitPatterns(args.skip),
    strict: args.strict,
    ...(seed === undefined ? {} : { seed }),
    client: {
      timeoutMs,
      retryAfterCapMs: parseDurationValue(args.retryAfterCap ?? '10s', { flag: '--retry-after-cap', bare: 's', minMs: 0, maxMs: 3_600_000 }),
      ...(args.rateLimit === undefined ? {} : { rateLimit: parseRateLimit(args.rateLimit) }),
    },
    ...(args.maxDuration === undefined ? {} : { maxDurationMs: parseDurationValue(args.maxDuration, { flag: '--max-duration', bare: 's', minMs: 1000 }) }),
    maxConsecutiveFailures: parseInteger(args.maxConsecutiveFailures ?? 5, { flag: '--max-consecutive-failures', min: 0, max: 1_000_000 }),
    concurrency: positiveInteger(args.concurrency, '--concurrency'),
    ...(args.baseline === undefined ? {} : { baselinePath: args.baseline }),
    reporters: reporters as ReporterName[],
    outDir: args.out,
    ...(args.har === undefined || args.har === '' ? {} : { harPath: args.har }),
  };
}
