/** One check's result as the verification's judges quote it: ID, state and a bounded message. */
import type { CheckState } from '../engine/types.js';

export interface CheckNote {
  id: string;
  state: CheckState;
  message: string;
}

/** Characters of a failure message kept in a note. */
const NOTE_CHARS = 300;

export function note(result: { id: string; state: CheckState; failure?: { message: string }; harnessError?: { message: string }; reason?: string }): CheckNote {
  const message = result.failure?.message ?? result.harnessError?.message ?? result.reason ?? '';
  return { id: result.id, state: result.state, message: message.length > NOTE_CHARS ? `${message.slice(0, NOTE_CHARS)}…` : message };
}
