/**
 * `check(id, fn)`: one vitest test per requirement. The title starts with the stable ID; the body gets a
 * client for the target and a context whose helpers turn a wrong answer into a ConformanceFailure with
 * expected vs actual. Needs missing from the profile (or hooks the target does not offer) skip the test
 * with the reason, never pass it.
 *
 * The suites write the spec's numbers (page sizes 10 to 100, the 5- and 10-minute windows, 7 days, 64 KB) as
 * their own literals and never import src/spec-numbers.ts, which the reference, client, profile and load
 * driver share: an independent reading of service.md, so a wrong number there makes the reference fail a
 * check instead of both agreeing on it (tests/architecture/rooms.test.ts keeps it so).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inject, type TestContext } from 'vitest';
import { createRecorder, createTargetClient, profileSecrets, type InternalRecorder } from '../../src/client/index.js';
import type { RecordedExchange, TargetClient } from '../../src/client/types.js';
import type { CheckMeta, RunContext } from '../../src/engine/check-meta.js';
import { joinRunChannel, type RunChannel } from '../../src/engine/run-channel.js';
import { seededFaker, type Faker } from '../../src/data/fake.js';
import { ConformanceFailure, isConformanceFailure, isHarnessError } from '../../src/errors.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { requirement, type Requirement, type RequirementId } from '../../src/requirements/catalogue.js';
import { controlsOf } from '../../src/requirements/controls.js';
import { noOperationReason, operationChecks } from '../../src/engine/operation-keys.js';
import type { SuiteOperation } from './operations.js';
import { checkBodyRunning, declareCheck } from './group.js';
import { missingNeed } from './needs.js';
import { isControlNotAccepted } from './expect.js';
import { keptExchanges } from './exchange-budget.js';

/** Secrets shorter than this stay with the worker that learned them (see onSecret below). */
const MIN_SHARED_SECRET_CHARS = 8;

/**
 * Exchanges the run's recorder keeps itself: none of the suites reads them there (each check gets its own
 * through `attributing`), and its default of 10,000 bodies was tens of megabytes of the thread's heap.
 */
const RECORDER_KEEPS = 64;

export interface CheckContext {
  readonly client: TargetClient;
  readonly profile: ResolvedProfile;
  readonly requirement: Requirement;
  readonly run: RunContext;
  /** Seeded from the run seed and the requirement ID: the same seed gives the same values. */
  readonly faker: Faker;
  /** Records an observation (INFO results, SHOULD warnings' detail). */
  note(text: string): void;
  /** Skips the check with a reason (e.g. a precondition the target could not give). */
  skip(reason: string): never;
}

/** The client of the run in progress; a worker thread serves run after run (another target each time). */
let sharedClient: { runId: string; client: TargetClient } | undefined;
let sharedChannel: { name: string; channel: RunChannel } | undefined;
/** Lasting secrets this worker's client learned since the last check ended (they go in the check's meta). */
let learned: string[] = [];

/** The run channel of this run (one per worker thread; a new run in the same worker joins its own). */
function runChannel(run: RunContext, recorder: () => InternalRecorder | undefined): RunChannel | undefined {
  if (run.channel === undefined) return undefined;
  if (sharedChannel?.name !== run.channel) {
    sharedChannel?.channel.close();
    const channel = joinRunChannel(run.channel, (message) => {
      // A token another worker obtained: redacted here too before any answer can echo it.
      if (message.kind === 'secret') recorder()?.learnSecret(message.value);
    });
    sharedChannel = { name: run.channel, channel };
  }
  return sharedChannel.channel;
}

/**
 * The check whose code is running, and its exchanges. Checks of a concurrent group share one client, so a
 * position in its recorder no longer says which check sent what: each exchange goes to the check in whose
 * async context it was sent, and the values the client generates are scoped by that check's ID.
 */
const runningCheck = new AsyncLocalStorage<{ id: string; exchanges: RecordedExchange[] }>();

/** The client's recorder, also handing every exchange to the running check. */
function attributing(inner: InternalRecorder): InternalRecorder {
  return {
    ...inner,
    record(raw) {
      const exchange = inner.record(raw);
      runningCheck.getStore()?.exchanges.push(exchange);
      return exchange;
    },
  };
}

/** One client per run: token cache and rate limit are shared by the run's checks. */
export function suiteClient(): TargetClient {
  const run = inject('acRun');
  if (sharedClient?.runId !== run.runId) {
    // The previous run's client (another target) holds idle keep-alive sockets: closed, not leaked.
    sharedClient?.client.close().catch(() => undefined);
    learned = [];
    let recorder: InternalRecorder | undefined;
    const channel = runChannel(run, () => recorder);
    // The run's recorder is built here (it attributes exchanges to checks), so the one client setting that
    // is the recorder's, not the transport's, is handed to it: createTargetClient ignores it for a given recorder.
    recorder = attributing(createRecorder({
      secrets: profileSecrets(run.profile),
      recordBodyBytes: run.client.recordBodyBytes,
      maxExchanges: RECORDER_KEEPS,
      onSecret: (value) => {
        // Short values are the checks' own deliberate junk (a wrong secret word), not credentials: shared run-wide
        // they would blank that word from every report; this worker still redacts them in its exchanges.
        if (value.length < MIN_SHARED_SECRET_CHARS) return;
        learned.push(value);
        channel?.post({ kind: 'secret', value });
      },
    }));
    const client = createTargetClient(run.profile, {
      ...run.client,
      recorder,
      // Default webhook bodies come from the run seed, numbered within the check that sends them.
      seed: run.seed,
      scope: () => runningCheck.getStore()?.id ?? '',
      ...(channel ? { onRequestOutcome: (outcome) => channel.post({ kind: 'outcome', outcome }) } : {}),
      // The firewall lets a POST go only to the reads the engine planned (ruling 35).
      readOperations: run.operations?.called ?? [],
    });
    sharedClient = { runId: run.runId, client };
  }
  return sharedClient.client;
}

export interface CheckOptions {
  /** The check's time limit in ms, from when it has its slot; default the run's (12 × --timeout). */
  timeout?: number;
  /**
   * About how long the check waits by design against a correct target (a watch for a run that must not
   * appear, a key rotation to be picked up): such a check in a group.concurrent starts before every group
   * (group.ts), so that its wait overlaps the others' work. Only for waits of the order of a second; a
   * check of a plain group keeps its place, and `checkEach` takes no `waitsMs`.
   */
  waitsMs?: number;
}

/**
 * Declares the check in the group being declared (group.ts): concurrent with the others in a
 * `group.concurrent`, and after every group, alone, when it moves the target's clock.
 */
export function check(id: RequirementId, body: (ctx: CheckContext) => Promise<void>, options: CheckOptions = {}): void {
  const req = requirement(id);
  declareCheck(id, `${id} ${req.text}`, req.movesClock === true, checkTest(req, id, undefined, body, options.timeout), options.waitsMs);
}

/**
 * Declares a per-operation requirement's checks (ruling 34): one test per operation of the run's plan it
 * applies to, titled `ID@METHOD path …`, each with the operation in its result; when it applies to none,
 * one test that skips saying why. The list is the engine's `operationChecks` (src/engine/operation-keys.ts),
 * the same its expected results come from.
 */
export function checkEach(id: RequirementId, body: (ctx: CheckContext, op: SuiteOperation) => Promise<void>, options: CheckOptions = {}): void {
  const req = requirement(id);
  const kind = req.perOperation;
  if (kind === undefined) throw new Error(`${id} is not a per-operation requirement (no perOperation in the catalogue)`);
  const run = inject('acRun');
  // The engine's own expansion (its expected results are the same list): one test per operation check.
  const checks = operationChecks(req, run.operations?.called as readonly SuiteOperation[] | undefined);
  if (checks.length === 0) {
    check(id, async (ctx) => ctx.skip(noOperationReason(kind, run.operations !== undefined)), options);
    return;
  }
  for (const { key, operation, op } of checks) {
    declareCheck(key, `${key} ${req.text}`, req.movesClock === true, checkTest(req, key, operation, (ctx) => body(ctx, op), options.timeout));
  }
}

/**
 * The body of one check's test: meta, needs, the client, the time limit, and the errors classified into the
 * meta. It runs once the check has its slot (group.ts, check-slots.ts): its time limit starts here.
 */
function checkTest(req: Requirement, key: string, operation: CheckMeta['operation'], body: (ctx: CheckContext) => Promise<void>, timeoutMs?: number): (vitestCtx: TestContext) => Promise<void> {
  const id = req.id;
  return async (vitestCtx: TestContext) => {
    const run = inject('acRun');
    const startedAt = Date.now();
    const meta: CheckMeta = {
      startedAt,
      requirementId: id,
      ...(operation ? { operation } : {}),
      level: req.level,
      group: req.group,
      observations: [],
      exchanges: [],
    };
    vitestCtx.task.meta.check = meta;

    const reason = missingNeed(run, req.needs);
    if (reason) {
      meta.skipReason = reason;
      meta.durationMs = Date.now() - startedAt;
      vitestCtx.skip(reason);
    }

    const client = suiteClient();
    const exchanges: RecordedExchange[] = [];
    // Built when the check first asks for it: a Faker costs a tenth of a millisecond to build and seed,
    // and most checks never draw a value from it.
    let faker: Faker | undefined;
    const ctx: CheckContext = {
      client,
      profile: run.profile,
      requirement: req,
      run,
      get faker() {
        return (faker ??= seededFaker(run.seed, id));
      },
      note: (text) => meta.observations.push(client.recorder.redact(text)),
      skip: (why) => {
        meta.skipReason = why;
        return vitestCtx.skip(why);
      },
    };
    checkBodyRunning(+1);
    const running = runningCheck.run({ id: key, exchanges }, () => body(ctx));
    // Counted out when the body ends, not when its time is up: a body past its limit still runs (nothing
    // can stop it), and the engine must not hand this thread to another target while it does.
    running.then(
      () => checkBodyRunning(-1),
      () => checkBodyRunning(-1),
    );
    let threw = false;
    try {
      await withinLimit(running, timeoutMs ?? run.checkTimeoutMs);
    } catch (error) {
      threw = true;
      if (error instanceof CheckTimedOut) {
        // Left to vitest to report: the engine reads "timed out in N ms" as a TIMEOUT harness error.
      } else if (isControlNotAccepted(error)) {
        meta.blocked = { message: client.recorder.redact(`${error.message} (got ${error.actual})`) };
      } else if (isConformanceFailure(error)) {
        // Texts a check built from raw values (a header it compared) go through the same rules as exchanges.
        const redact = (text: string): string => client.recorder.redact(text);
        meta.failure = { message: redact(error.message), expected: redact(error.expected), actual: redact(error.actual) };
      } else if (isHarnessError(error) && (error.code === 'CLIENT_SECRET_INVALID' || error.code === 'CLIENT_ID_INVALID')) {
        // The target issued a malformed credential: the CRED checks fail for it; checks that need to sign
        // with it cannot say anything more, so they are skipped with that reason rather than errored.
        const why = `the profile's credential is malformed (${error.message}); see the CRED checks`;
        meta.skipReason = why;
        vitestCtx.skip(why);
      } else if (isHarnessError(error)) {
        meta.harnessError = { code: error.code, message: client.recorder.redact(error.message), hint: error.hint };
      } else if (error instanceof Error && error.name !== 'PendingError' && !('code' in error && error.code === 'VITEST_PENDING')) {
        // A plain assertion error from expect(): still the target's fault, described by vitest's message.
        meta.failure = { message: client.recorder.redact(error.message), expected: '', actual: '' };
      }
      throw error;
    } finally {
      meta.durationMs = Date.now() - startedAt;
      if (learned.length > 0) {
        meta.secrets = learned;
        learned = [];
      }
      // A passed check's exchanges go only to a report that shows them (html, har): otherwise they are
      // dropped here, never redacted (the recorder redacts on first read) nor shipped to the main thread.
      // A refusal with a positive control keeps them: the engine turns it into `blocked` when its control
      // did not pass, and every report shows a blocked check's exchanges.
      const shown = threw || run.passedExchanges || controlsOf(id).length > 0;
      meta.exchanges = shown ? keptExchanges(run.runId, !threw, exchanges) : [];
    }
  };
}

export { ConformanceFailure };

/** A check past its time limit, worded as vitest words its own timeout (src/engine/outcome.ts reads it so). */
class CheckTimedOut extends Error {
  constructor(ms: number) {
    super(`Test timed out in ${ms}ms.`);
  }
}

async function withinLimit(work: Promise<void>, ms: number | undefined): Promise<void> {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new CheckTimedOut(ms)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
