/** What `load` and `load prepare` do once their flags parsed. */
import { resolve } from 'node:path';
import { startProfileJwksServers } from '../../client/index.js';
import { EXIT, HarnessError } from '../../errors.js';
import {
  WEBHOOK_JWT_MAX_EXP_SECONDS,
  describeWindow,
  parseCount,
  parseDurationMs,
  parseRate,
  parseStages,
  prepareCorpus,
  runLoad,
  summaryText,
  writeCorpus,
  type Scenario,
} from '../../load/index.js';
import { loadProfile } from '../../profile/index.js';
import type { HmacListenerKey, JwtAlg } from '../../profile/types.js';

import type { LoadArgs } from './load.js';

export async function loadHandler(args: LoadArgs): Promise<number> {
  return args.action === 'prepare' ? prepare(args) : load(args);
}

async function load(args: LoadArgs): Promise<number> {
  for (const flag of ['count', 'exp-in'] as const) {
    if (args[flag] !== undefined) throw new HarnessError('USAGE', `--${flag} belongs to \`load prepare\``, { field: `--${flag}` });
  }
  const controller = new AbortController();
  // SIGTERM (a CI job's timeout) stops the run like Ctrl-C: the partial report is still written.
  const onSigint = (): void => {
    process.stderr.write('\nInterrupted: stopping and writing the partial report (Ctrl-C again to quit at once)\n');
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigint);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const outcome = await runLoad({
      scenario: args.scenario as Scenario,
      profilePath: args.profile,
      rate: args.rate === undefined ? undefined : atMost(parseRate(args.rate), MAX_RATE, '--rate'),
      durationMs: args.duration === undefined ? undefined : parseDurationMs(args.duration),
      stages: args.stages === undefined ? undefined : parseStages(args.stages).map((stage) => ({ ...stage, target: atMost(stage.target, MAX_RATE, '--stages') })),
      connections: optionalCount(args.connections, '--connections', 1, 10_000),
      maxInFlight: optionalCount(args['max-in-flight'], '--max-in-flight', 1, 1_000_000),
      maxRequests: optionalCount(args['max-requests'], '--max-requests'),
      bodyBytes: optionalCount(args['body-bytes'], '--body-bytes', 2, 64 * 1024 * 1024),
      alg: args.alg as JwtAlg | undefined,
      listener: args.listener as HmacListenerKey | undefined,
      tokenMethod: args['token-method'] as 'secret' | 'assertion' | undefined,
      corpusPath: args.corpus,
      dupPool: optionalCount(args['dup-pool'], '--dup-pool', 1, 100_000),
      pageSize: optionalCount(args['page-size'], '--page-size', 1, 100_000),
      timeoutMs: args.timeout === undefined ? undefined : parseDurationMs(args.timeout, '--timeout'),
      thresholds: args.threshold,
      outDir: args.out ?? 'reports',
      seed: args.seed,
      signal: controller.signal,
      onProgress: args.quiet ? undefined : (line) => process.stderr.write(line),
    });
    process.stdout.write(summaryText(outcome.report, outcome.written));
    return outcome.report.passed ? EXIT.CONFORMANT : EXIT.NOT_CONFORMANT;
  } finally {
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigint);
  }
}

/** Arrivals per second past which the schedule's prebuilt queues would not fit in memory. */
const MAX_RATE = 1_000_000;

function optionalCount(value: number | undefined, field: string, min = 1, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const count = parseCount(value, field, min);
  return atMost(count, max, field);
}

function atMost(value: number, max: number, field: string): number {
  if (value > max) throw new HarnessError('LOAD_CONFIG', `${field} must be at most ${max} (got ${value})`, { field });
  return value;
}

async function prepare(args: LoadArgs): Promise<number> {
  if (args.scenario !== 'webhook-jwt') {
    throw new HarnessError('USAGE', '`load prepare` makes webhook-jwt corpora only (the other k6 scripts sign in k6)', {
      field: '--scenario',
      hint: 'access-conformance load prepare --scenario webhook-jwt --count 6000 --out corpus.json --profile target.json',
    });
  }
  if (!args.profile) {
    throw new HarnessError('USAGE', '`load prepare` needs --profile: a corpus is signed for one target, which must outlive this command', {
      field: '--profile',
      hint: 'Start a sandbox with `access-conformance serve --profile-out target.json`, or name your target\'s profile.',
    });
  }
  if (args.count === undefined) throw new HarnessError('USAGE', '`load prepare` needs --count', { field: '--count' });
  if (!args.out) throw new HarnessError('USAGE', '`load prepare` needs --out <corpus.json>', { field: '--out' });
  const count = parseCount(args.count, '--count');
  const profile = await loadProfile(args.profile);
  const started = Date.now();
  const corpus = await prepareCorpus({
    profile,
    alg: args.alg as JwtAlg | undefined,
    count,
    bodyBytes: optionalCount(args['body-bytes'], '--body-bytes', 2) ?? 1024,
    expIn: args['exp-in'],
    seed: args.seed ?? 'corpus',
    onProgress: args.quiet ? undefined : (signed) => process.stderr.write(`\rsigned ${signed} of ${count}`),
  });
  if (!args.quiet) process.stderr.write('\n');
  const path = resolve(args.out);
  await writeCorpus(path, corpus);
  const now = Date.now() / 1000;
  process.stdout.write(
    `${path}: ${corpus.count} ${corpus.alg} webhook requests for ${corpus.url} (signed in ${((Date.now() - started) / 1000).toFixed(1)} s)\n` +
      `  validity: ${describeWindow(corpus, now)}\n` +
      `  each event ID can be sent once: a k6 run may send at most ${corpus.count} requests (RATE × DURATION)\n` +
      `  replay: k6 run -e CORPUS=${path} -e RATE=<n> -e DURATION=<d> load/webhook-jwt.js\n`,
  );
  if (args['serve-jwks']) await serveJwksUntilDone(profile, corpus.notAfter);
  return EXIT.CONFORMANT;
}

/** Keeps the listener's JWKS up while k6 replays the corpus: until Ctrl-C or the corpus expires. */
async function serveJwksUntilDone(profile: Awaited<ReturnType<typeof loadProfile>>, notAfter: number): Promise<void> {
  if (!profile.webhooks.jwt?.serveJwks) {
    process.stdout.write('  --serve-jwks: the profile\'s JWT listener has no serveJwks (its JWKS is hosted elsewhere); nothing to serve\n');
    return;
  }
  const jwks = await startProfileJwksServers(profile);
  process.stdout.write(`  serving the JWKS at ${jwks.servers.map((s) => s.url).join(', ')} until Ctrl-C or the corpus expires\n`);
  await new Promise<void>((done) => {
    const timer = setTimeout(finish, Math.max(0, notAfter * 1000 - Date.now()));
    function finish(): void {
      clearTimeout(timer);
      process.removeListener('SIGINT', finish);
      done();
    }
    process.once('SIGINT', finish);
  });
  await jwks.close();
}
