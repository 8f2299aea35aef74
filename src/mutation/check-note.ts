/** One check's result as the verification's judges quote it: ID, state and a bounded message. */
import type { CheckState } from '../engine/types.js';

export interface CheckNote {
  id: string;
  state: CheckState;
  message: string;
}

/** Characters of a failure message kept in a note. */
const NOTE_CHARS = 300;

export function note(result: { id: string; state: CheckState; failure?: { message: string }; harnessError?: { message: string }; reason?: string; blockedBy?: { control: string; ownRequest?: boolean } }): CheckNote {
  const blocked = result.blockedBy ? (result.blockedBy.ownRequest ? 'its own control request was not accepted' : `its positive control ${result.blockedBy.control} did not pass`) : undefined;
  const message = result.failure?.message ?? result.harnessError?.message ?? blocked ?? result.reason ?? '';
  return { id: result.id, state: result.state, message: message.length > NOTE_CHARS ? `${message.slice(0, NOTE_CHARS)}…` : message };
}

/**
 * One result per requirement ID. A per-operation requirement (ruling 34) has one result per operation: the
 * first that failed stands for them (the fault was caught on that operation), else the first that did not
 * pass, else the first.
 */
export function resultsById<R extends { id: string; state: string }>(results: readonly R[]): Map<string, R> {
  const rank = (state: string): number => (state === 'failed' ? 0 : state === 'passed' ? 2 : 1);
  const byId = new Map<string, R>();
  for (const result of results) {
    const known = byId.get(result.id);
    if (known === undefined || rank(result.state) < rank(known.state)) byId.set(result.id, result);
  }
  return byId;
}
