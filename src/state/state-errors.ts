/**
 * Every way a state directory can be unusable, as the HarnessError that names it: missing, not a directory,
 * not writable, full (STATE_DIR), in use (STATE_DIR_LOCKED), damaged (STATE_DIR_CORRUPT). One place, so
 * a cause is never reported as another (a garbage MANIFEST once read as "choose a directory you can write").
 */
import { HarnessError } from '../errors.js';

export type StateDirCause = 'missing' | 'not a directory' | 'not writable' | 'full' | 'unopenable';

const CAUSE_TEXT: Record<StateDirCause, { what: string; hint: string }> = {
  missing: { what: 'a part of its path does not exist and cannot be created', hint: 'Name a directory whose parent exists (it is created when absent).' },
  'not a directory': { what: 'it is not a directory', hint: 'Name a directory (created when absent), not a file.' },
  'not writable': { what: 'this user cannot write there', hint: 'Choose a directory this user can create and write (it holds the sandbox\'s tenant and records), or fix its permissions.' },
  unopenable: { what: 'LevelDB could not open it', hint: 'The detail in brackets says why (LevelDB\'s own words); fix that, or choose another --state-dir.' },
  full: { what: 'the disk is full (ENOSPC)', hint: 'Free space on its file system (or give it more), then start serve again: the directory is checked before it is used.' },
};

export function stateDirError(dir: string, cause: StateDirCause, detail: string, error?: unknown): HarnessError {
  const { what, hint } = CAUSE_TEXT[cause];
  return new HarnessError('STATE_DIR', `cannot use the state directory ${dir}: ${what} (${detail})`, { field: '--state-dir', hint, ...(error === undefined ? {} : { cause: error }) });
}

export function lockedError(dir: string, error?: unknown): HarnessError {
  return new HarnessError('STATE_DIR_LOCKED', `the state directory ${dir} is in use by another process (LevelDB's LOCK is held)`, {
    field: '--state-dir',
    hint: 'Stop the other serve using it, or choose another --state-dir.',
    ...(error === undefined ? {} : { cause: error }),
  });
}

export const REPAIR_HINT = 'Start once with --state-repair to keep what can be proved (it says how many records it drops), or choose a fresh --state-dir.';

/** `file` is the damaged file's name inside DIR; `found` says what is wrong with it. */
export function corruptError(dir: string, file: string, found: string, error?: unknown): HarnessError {
  return new HarnessError('STATE_DIR_CORRUPT', `the state directory ${dir} cannot be proved whole: ${file}: ${found}`, {
    field: '--state-dir',
    hint: REPAIR_HINT,
    ...(error === undefined ? {} : { cause: error }),
  });
}

/** The cause of a file-system error (a Node errno code, or the text of a LevelDB IO error). */
export function fsCause(code: string | undefined, text: string): StateDirCause | undefined {
  if (code === 'ENOSPC' || /No space left on device/i.test(text)) return 'full';
  if (code === 'ENOTDIR' || code === 'EEXIST' || /Not a directory/i.test(text)) return 'not a directory';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || /Permission denied|Read-only file system|Operation not permitted/i.test(text)) return 'not writable';
  if (code === 'ENOENT' || /No such file or directory/i.test(text)) return 'missing';
  return undefined;
}
