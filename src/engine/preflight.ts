/**
 * Before any suite runs: does the target answer at all, and which test hooks does it offer. A target that
 * does not answer is a harness error naming the URL, not 200 failed checks.
 */
import { createTargetClient } from '../client/index.js';
import { HarnessError, isHarnessError, type HarnessErrorCode } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import { readClock, type ClockReading } from './clock-watch.js';

/** Transport codes that mean "nothing answered". */
const NO_ANSWER: ReadonlySet<HarnessErrorCode> = new Set(['TARGET_UNREACHABLE', 'DNS', 'TLS', 'TIMEOUT', 'CONNECTION_RESET']);

export interface PreflightResult {
  capabilities: { clock: boolean; runs: boolean };
  notes: string[];
  /** The target's clock when the clock hook answers (clock-watch.ts): what the run moved it by is measured from here. */
  clockAt?: ClockReading;
}

export async function preflight(profile: ResolvedProfile, timeoutMs: number): Promise<PreflightResult> {
  const client = createTargetClient(profile, { timeoutMs, max429Retries: 0 });
  try {
    try {
      // Any HTTP answer will do (even 404): the point is that something listens there.
      // Never retried (a 429 is an answer too): a rate-limited target must not hold the run before it starts.
      await client.request({ method: 'GET', url: profile.baseUrl, label: 'preflight: does the target answer', retryOn429: false });
    } catch (error) {
      if (isHarnessError(error) && NO_ANSWER.has(error.code)) {
        const hung = error.code === 'TIMEOUT';
        throw new HarnessError(hung ? 'TARGET_UNREACHABLE' : error.code, `target ${profile.baseUrl} does not answer: ${error.message}`, {
          field: 'baseUrl',
          // A hang is a different fault from a closed port: something accepted the connection.
          hint: hung
            ? 'something accepts connections at the profile\'s baseUrl but sends no answer; check that it is the implementation and that it is not stuck (raise --timeout if it is only slow)'
            : 'check that the implementation is running and that the profile\'s baseUrl points at it',
        });
      }
      throw error;
    }
    const notes: string[] = [];
    let capabilities = { clock: false, runs: false };
    if (client.hooks && profile.hooks) {
      const where = `test hooks at ${profile.hooks.baseUrl}`;
      try {
        capabilities = await client.hooks.probe();
        if (!capabilities.clock) notes.push(`${where}: GET /clock did not answer 200, so checks that need the clock hook are skipped`);
        if (!capabilities.runs) notes.push(`${where}: GET /runs did not answer 200, so checks that need the runs hook are skipped`);
      } catch (error) {
        notes.push(`${where}: probing failed (${isHarnessError(error) ? error.code : 'error'}), so checks that need hooks are skipped`);
      }
    }
    let clockAt: ClockReading | undefined;
    if (capabilities.clock) {
      // Best effort: a clock that answered the probe but not this read only costs the end-of-run note.
      clockAt = await readClock(profile, timeoutMs).catch(() => undefined);
    }
    return { capabilities, notes, ...(clockAt ? { clockAt } : {}) };
  } finally {
    await client.close();
  }
}
