/**
 * Which operations read (ruling 35, refining 34): a GET; a POST only when its JSON body declares the page
 * fields and the last dot-separated part of its operation ID, split into camel-case words, begins with the
 * word `Search` or `List` and holds no word that names a change; without an operation ID, only when its
 * path has a segment `search`. Whole words, never prefixes: `ListenerCreate` is not a read (its first word
 * is `Listener`), `SearchAndRevoke` is not (`Revoke`), `SearchGrantFeed` and `ListEvents` are. The words
 * are data, written once; a description cannot add to them.
 */

/** The words a reading operation ID's last part begins with. */
export const READ_FIRST_WORDS = ['Search', 'List'] as const;

/** The path segment that marks a search when the operation has no ID. */
export const READ_PATH_SEGMENT = 'search';

/**
 * Words that name a change (ruling 35's list, and the verbs of the real description's changing POSTs and
 * their kin): an operation ID holding one is never a read, whatever comes first.
 */
export const CHANGE_WORDS: readonly string[] = [
  // ruling 35
  'Create', 'Update', 'Delete', 'Remove', 'Revoke', 'Add', 'Set', 'Put', 'Patch', 'Approve', 'Deny', 'Cancel', 'Close',
  'Execute', 'Invoke', 'Run', 'Trigger', 'Send', 'Import', 'Sync', 'Restore', 'Reset', 'Rotate', 'Enable', 'Disable', 'Force',
  // the real description's other changing verbs
  'Terminate', 'Generate', 'Process', 'Reassign', 'Restart', 'Skip', 'Escalate', 'Test', 'Validate',
  // their kin (words that are as often nouns, `Issue`, `Comment`, `Link`, `Export`, are left out: `ListExport` reads)
  'Write', 'Modify', 'Edit', 'Insert', 'Upsert', 'Replace', 'Assign', 'Unassign', 'Archive', 'Unarchive', 'Purge', 'Clear',
  'Submit', 'Start', 'Stop', 'Commit', 'Apply', 'Merge', 'Move', 'Copy', 'Upload', 'Register', 'Unregister', 'Unlink',
  'Attach', 'Detach', 'Accept', 'Reject', 'Publish', 'Unpublish', 'Save', 'Bulk',
  'Refresh', 'Revert', 'Undo', 'Renew', 'Claim', 'Unlock', 'Suspend', 'Resume', 'Notify', 'Provision', 'Deprovision',
  'Invite', 'Kill', 'Destroy', 'Drop', 'Truncate', 'Wipe', 'Erase', 'Evict', 'Flush', 'Rollback', 'Migrate', 'Deploy',
  'Enqueue', 'Dequeue', 'Push', 'Pop', 'Consume', 'Acknowledge', 'Ack', 'Confirm', 'Transfer', 'Grant',
  'Rename', 'Duplicate', 'Clone', 'Join', 'Leave', 'Subscribe', 'Unsubscribe', 'Pause', 'Unpause', 'Retry', 'Replay',
  'Upgrade', 'Downgrade', 'Install', 'Uninstall', 'Activate', 'Deactivate', 'Expire', 'Override', 'Impersonate',
];

/**
 * `Grant` is a noun where a reading ID names what it reads (`SearchGrantFeed`, `SearchGrants`), a verb
 * elsewhere (`GrantAccess`): read as a noun only right after the first word.
 */
const NOUN_AFTER_FIRST_WORD = new Set(['grant']);

const CHANGE_SET = new Set(CHANGE_WORDS.map((word) => word.toLowerCase()));

/** `SearchGrantFeed` → `['Search', 'Grant', 'Feed']`; `ListOwnerIDs` → `['List', 'Owner', 'IDs']`; `search_apps` → `['search', 'apps']`. */
export function camelWords(name: string): string[] {
  return name.match(/[A-Z]+s(?![a-z])|[A-Z]+(?![a-z])|[A-Z][a-z]*|[a-z]+|[0-9]+/g) ?? [];
}

/** The last dot-separated part of an operation ID (`c1.api.app.v1.AppSearch.Search` → `Search`). */
export function lastIdPart(operationId: string): string {
  return operationId.split('.').pop() ?? '';
}

export type PostVerdict =
  /** A read: the harness may call it. */
  | { read: true }
  /** Not a read. `doubt`: no word names a change, only the name does not say it reads; the user may opt in. */
  | { read: false; why: string; doubt: boolean };

/** Ruling 35's test for a POST whose body declares the page fields. */
export function readingPostVerdict(op: { path: string; operationId?: string }): PostVerdict {
  if (op.operationId === undefined || op.operationId === '') {
    if (op.path.split('/').includes(READ_PATH_SEGMENT)) return { read: true };
    return { read: false, why: `it has no operation ID and no path segment "${READ_PATH_SEGMENT}"`, doubt: true };
  }
  const part = lastIdPart(op.operationId);
  const words = camelWords(part);
  const change = words.find((word, index) => CHANGE_SET.has(word.toLowerCase()) && !(index === 1 && NOUN_AFTER_FIRST_WORD.has(word.toLowerCase())));
  if (change !== undefined) return { read: false, why: `its operation ID's last part ${JSON.stringify(part)} holds the word "${change}", which names a change`, doubt: false };
  const first = words[0] ?? '';
  if (READ_FIRST_WORDS.some((word) => word.toLowerCase() === first.toLowerCase())) return { read: true };
  return {
    read: false,
    why: `its operation ID's last part ${JSON.stringify(part)} does not begin with the word ${READ_FIRST_WORDS.map((word) => `"${word}"`).join(' or ')}${first === '' ? '' : ` (its first word is "${first}")`}`,
    doubt: true,
  };
}
