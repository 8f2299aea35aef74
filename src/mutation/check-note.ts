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
