/** What `load` and `load prepare` do once their flags parsed. */
import { resolve } from 'node:path';
import { startProfileJwksServers } from '../../client/index.js';
import { EXIT, HarnessError, isHarnessError } from '../../errors.js';
import { describeWindow, prepareCorpus, runLoad, summaryText, writeCorpus } from '../../load/index.js';
import { loadProfile } from '../../profile/index.js';
import { openRunScope } from '../../stop/scope.js';
import { onStopSignals } from '../../stop/signals.js';
import { writeStoppedReport } from '../../stop/stopped-report.js';
import { checkAction, type LoadCliOptions } from './load-options.js';

export async function loadHandler(options: LoadCliOptions, args: Readonly<Record<string, unknown>>): Promise<number> {
  const action = typeof args.action === 'string' ? args.action : undefined;
  checkAction(action, new Set(Object.keys(args).filter((key) => args[key] !== undefined)));
  return action === 'prepare' ? prepare(options) : load(options);
}

async function load(options: LoadCliOptions): Promise<number> {
  // One run scope from the first line (stop/scope.ts): --max-duration bounds the whole command, set-up
  // included (it stops the run like a signal, exit 2), and SIGINT / SIGTERM hold in every phase. The driver
  // stops and closes the embedded target itself; a forced second signal just ends the process (the embedded
  // reference's child process sees its IPC channel close and stops).
  // Without --max-duration, start-up alone is bounded (the sending has its planned duration).
  const startedAt = Date.now();
  const scope = openRunScope({ what: 'the load run', reportDir: resolve(options.out), ...(options.maxDuration === undefined ? { startUp: {} } : { maxDurationMs: options.maxDuration }) });
  try {
    const outcome = await runLoad({
      scenario: options.scenario,
      profilePath: options.profile,
      rate: options.rate,
      durationMs: options.duration,
      stages: options.stages,
      connections: options.connections,
      maxInFlight: options.maxInFlight,
      workers: options.workers,
      maxRequests: options.maxRequests,
      bodyBytes: options.bodyBytes,
      alg: options.alg,
      listener: options.listener,
      tokenMethod: options.tokenMethod,
      corpusPath: options.corpus,
      dupPool: options.dupPool,
      pageSize: options.pageSize,
      timeoutMs: options.timeout,
      thresholds: options.threshold,
      strict: options.strict,
      outDir: options.out,
      seed: options.seed,
      signal: scope.signal,
      onProgress: options.quiet ? undefined : (line) => process.stderr.write(line),
      metricsListen: options.metricsListen,
      streamPath: options.stream,
      abortOnFail: options.abortOnFail,
      abortAfterMs: options.abortAfter,
      // Printed even with --quiet: with port 0 it is the only way to learn where to scrape.
      onMetricsListening: (url, exposure) => process.stderr.write(`metrics: ${url}\n${exposure === undefined ? '' : `warning: ${exposure}\n`}`),
      // Start-up ends where the measured sending (`load`) starts.
      onPhase: (phase) => {
        if (phase === 'load') scope.startedUp();
        return scope.enter(phase);
      },
    });
    scope.reported();
    process.stdout.write(summaryText(outcome.report, outcome.written));
    // An output that could not be written (a full disk, a folder, a FIFO nobody reads): named, the others kept, exit 2.
    for (const failure of outcome.outputFailures) process.stderr.write(`${failure.format()}\n`);
    return outcome.outputFailures.length > 0 ? EXIT.HARNESS : outcome.report.exitCode;
  } catch (error) {
    // A harness error before the driver wrote its report (a profile that does not load, a corpus for
    // another target, a metrics port in use): report.json says why, as `run`'s does. main() prints it.
    if (isHarnessError(error) && error.code !== 'USAGE' && !scope.hasReported) {
      await writeStoppedReport(resolve(options.out), {
        command: 'load',
        code: error.code,
        message: error.message,
        ...(error.hint === undefined ? {} : { hint: error.hint }),
        phase: scope.phase,
        exitCode: 2,
        startedAt,
        writtenBy: 'run scope',
      }).then(
        () => scope.reported(),
        () => {},
      );
    }
    throw error;
  } finally {
    await scope.close();
  }
}

/** `--out corpus.json` is the corpus file; any other --out (the default `reports`) is its folder. */
function corpusPath(out: string): string {
  return resolve(out.toLowerCase().endsWith('.json') ? out : `${out}/corpus.json`);
}

async function prepare(options: LoadCliOptions): Promise<number> {
  if (options.scenario !== 'webhook-jwt') {
    throw new HarnessError('USAGE', '`load prepare` makes webhook-jwt corpora only (the other k6 scripts sign in k6)', {
      field: '--scenario',
      hint: 'access-conformance load prepare --scenario webhook-jwt --count 6000 --out corpus.json --profile target.json',
    });
  }
  if (!options.profile) {
    throw new HarnessError('USAGE', '`load prepare` needs --profile: a corpus is signed for one target, which must outlive this command', {
      field: '--profile',
      hint: 'Start a sandbox with `access-conformance serve --profile-out target.json`, or name your target\'s profile.',
    });
  }
  if (options.count === undefined) throw new HarnessError('USAGE', '`load prepare` needs --count', { field: '--count' });
  const count = options.count;
  const profile = await loadProfile(options.profile);
  const started = Date.now();
  const corpus = await prepareCorpus({
    profile,
    alg: options.alg,
    count,
    bodyBytes: options.bodyBytes,
    expIn: options.expIn / 1000,
    seed: options.seed ?? 'corpus',
    onProgress: options.quiet ? undefined : (signed) => process.stderr.write(`\rsigned ${signed} of ${count}`),
  });
  if (!options.quiet) process.stderr.write('\n');
  const path = corpusPath(options.out);
  await writeCorpus(path, corpus);
  const now = Date.now() / 1000;
  process.stdout.write(
    `${path}: ${corpus.count} ${corpus.alg} webhook requests for ${corpus.url} (signed in ${((Date.now() - started) / 1000).toFixed(1)} s)\n` +
      `  validity: ${describeWindow(corpus, now)}\n` +
      `  each event ID can be sent once: a k6 run may send at most ${corpus.count} requests (RATE × DURATION)\n` +
      `  replay: k6 run -e CORPUS=${path} -e RATE=<n> -e DURATION=<d> load/webhook-jwt.js\n`,
  );
  if (options.serveJwks) await serveJwksUntilDone(profile, corpus.notAfter);
  return EXIT.CONFORMANT;
}

/** Keeps the listener's JWKS up while k6 replays the corpus: until Ctrl-C, SIGTERM or the corpus expires. */
async function serveJwksUntilDone(profile: Awaited<ReturnType<typeof loadProfile>>, notAfter: number): Promise<void> {
  if (!profile.webhooks.jwt?.serveJwks) {
    process.stdout.write('  --serve-jwks: the profile\'s JWT listener has no serveJwks (its JWKS is hosted elsewhere); nothing to serve\n');
    return;
  }
  const jwks = await startProfileJwksServers(profile);
  process.stdout.write(`  serving the JWKS at ${jwks.servers.map((s) => s.url).join(', ')} until Ctrl-C or the corpus expires\n`);
  await new Promise<void>((done) => {
    const timer = setTimeout(finish, Math.max(0, notAfter * 1000 - Date.now()));
    const removeSignals = onStopSignals(finish);
    function finish(): void {
      clearTimeout(timer);
      removeSignals();
      done();
    }
  });
  await jwks.close();
}
