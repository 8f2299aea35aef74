/**
 * `check(id, fn)`: one vitest test per requirement. The title starts with the stable ID; the body gets a
 * client for the target and a context whose helpers turn a wrong answer into a ConformanceFailure with
 * expected vs actual. Needs missing from the profile (or hooks the target does not offer) skip the test
 * with the reason, never pass it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { inject, test, type TestContext } from 'vitest';
import { createRecorder, createTargetClient, type InternalRecorder } from '../../src/client/index.js';
import type { RecordedExchange, TargetClient } from '../../src/client/types.js';
import type { CheckMeta, RunContext } from '../../src/engine/check-meta.js';
import { seededFaker, type Faker } from '../../src/data/fake.js';
import { ConformanceFailure, isConformanceFailure, isHarnessError } from '../../src/errors.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { requirement, type Requirement, type RequirementId } from '../../src/requirements.js';
import { missingNeed } from './needs.js';

/** Exchanges kept per check in reports: enough to show what happened, bounded for 25-way races. */
const MAX_EXCHANGES_PER_CHECK = 12;

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

let sharedClient: TargetClient | undefined;

/**
 * The exchanges of the check whose code is running. Checks of a concurrent group share one client, so a
 * position in its recorder no longer says which check sent what: each exchange goes to the check in whose
 * async context it was sent.
 */
const checkExchanges = new AsyncLocalStorage<RecordedExchange[]>();

/** The client's recorder, also handing every exchange to the running check. */
function attributingRecorder(): InternalRecorder {
  const inner = createRecorder();
  return {
    ...inner,
    record(raw) {
      const exchange = inner.record(raw);
      checkExchanges.getStore()?.push(exchange);
      return exchange;
    },
  };
}

/** One client per suite worker: token cache and rate limit are shared by the checks of a file. */
export function suiteClient(): TargetClient {
  if (!sharedClient) {
    const run = inject('acRun');
    sharedClient = createTargetClient(run.profile, { timeoutMs: run.client.timeoutMs, rateLimit: run.client.rateLimit, recorder: attributingRecorder() });
  }
  return sharedClient;
}

export interface CheckOptions {
  /** Test timeout in ms; default vitest's configured timeout. */
  timeout?: number;
}

/**
 * Declares the check. A suite whose checks are independent declares its describe block `concurrent` (the
 * engine bounds how many run at once); a check that moves the target's clock always runs on its own
 * (`test.sequential`), even inside such a block.
 */
export function check(id: RequirementId, body: (ctx: CheckContext) => Promise<void>, options: CheckOptions = {}): void {
  const req = requirement(id);
  const declare = req.movesClock ? test.sequential : test;
  declare(`${id} ${req.text}`, { timeout: options.timeout }, async (vitestCtx: TestContext) => {
    const run = inject('acRun');
    const meta: CheckMeta = {
      requirementId: id,
      level: req.level,
      group: req.group,
      observations: [],
      exchanges: [],
    };
    vitestCtx.task.meta.check = meta;

    const reason = missingNeed(run, req.needs);
    if (reason) {
      meta.skipReason = reason;
      vitestCtx.skip(reason);
    }

    const client = suiteClient();
    const exchanges: RecordedExchange[] = [];
    const faker = seededFaker(run.seed, id);
    const ctx: CheckContext = {
      client,
      profile: run.profile,
      requirement: req,
      run,
      faker,
      note: (text) => meta.observations.push(client.recorder.redact(text)),
      skip: (why) => {
        meta.skipReason = why;
        return vitestCtx.skip(why);
      },
    };
    try {
      await checkExchanges.run(exchanges, () => body(ctx));
    } catch (error) {
      if (isConformanceFailure(error)) {
        meta.failure = { message: error.message, expected: error.expected, actual: error.actual };
      } else if (isHarnessError(error) && (error.code === 'CLIENT_SECRET_INVALID' || error.code === 'CLIENT_ID_INVALID')) {
        // The target issued a malformed credential: the CRED checks fail for it; checks that need to sign
        // with it cannot say anything more, so they are skipped with that reason rather than errored.
        const why = `the profile's credential is malformed (${error.message}); see the CRED checks`;
        meta.skipReason = why;
        vitestCtx.skip(why);
      } else if (isHarnessError(error)) {
        meta.harnessError = { code: error.code, message: error.message, hint: error.hint };
      } else if (error instanceof Error && error.name !== 'PendingError' && !('code' in error && error.code === 'VITEST_PENDING')) {
        // A plain assertion error from expect(): still the target's fault, described by vitest's message.
        meta.failure = { message: client.recorder.redact(error.message), expected: '', actual: '' };
      }
      throw error;
    } finally {
      meta.exchanges = exchanges.length > MAX_EXCHANGES_PER_CHECK
        ? [...exchanges.slice(0, MAX_EXCHANGES_PER_CHECK - 1), exchanges[exchanges.length - 1]]
        : exchanges;
    }
  });
}

export { ConformanceFailure };
