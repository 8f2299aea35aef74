/**
 * Every flag of `send`, one row each like run's (run-options.ts; the shared rows from shared-options.ts):
 * yargs reads this table for parsing, --help and ACCESS_CONFORMANCE_<FLAG>; docs/sandbox.md describes it. parseSendArgs checks
 * the values that need no file or network; the body is checked once read (send.ts).
 */
import { HarnessError } from '../../errors.js';
import { HMAC_LISTENER_KEYS, JWT_LISTENER_KEYS } from '../../profile/document.js';
import type { ListenerKey } from '../../profile/types.js';
import type { ClientSettings } from '../../client/settings.js';
import { booleanRow, clientSettings, listRow, textRow, type OptionRow, type OptionValues, type RawValue } from '../option-grammar.js';
import { SHARED_OPTIONS } from '../shared-options.js';

export const LISTENER_KEYS: readonly ListenerKey[] = [...HMAC_LISTENER_KEYS, ...JWT_LISTENER_KEYS];

/**
 * What `--break` can spoil, one rule each, through the client toolkit's WebhookOptions (the same options
 * the suites use), and the answer service.md gives for it.
 */
export const BREAKS = {
  signature: 'signed with another secret (HMAC) or another key under the same kid (JWT): 401',
  body: 'the body changed after signing (HMAC input, JWT htb_s256): 401',
  timestamp: 'Webhook-Timestamp 330 s in the past, outside the 5-minute window: 400',
  'event-id': 'Webhook-Event-Id that is not a UUID v4: 400',
  'content-type': 'no Content-Type header: 400',
  auth: 'no Webhook-Signature / Authorization header at all: 401',
  expired: 'JWT listeners: a JWT whose exp is a minute in the past: 401',
} as const;
export type BreakName = keyof typeof BREAKS;

export const SEND_OPTIONS = {
  profile: SHARED_OPTIONS.profile,
  listener: textRow({ describe: `Listener key in the profile: ${LISTENER_KEYS.join(', ')}. HMAC or JWT follows the listener. e.g. --listener hmac` }),
  data: { yargs: { type: 'string', describe: 'Body text (JSON unless --raw). e.g. --data \'{"user":"u-1"}\'' }, kind: 'text', parse: (raw: RawValue) => (raw === undefined ? undefined : String(raw)) },
  file: {
    // Without requiresArg yargs reads a lone "-" as a positional argument, not as this flag's value.
    ...textRow({ describe: 'Read the body from this file; "-" reads standard input. e.g. --file event.json' }),
    yargs: { type: 'string', requiresArg: true, describe: 'Read the body from this file; "-" reads standard input. e.g. --file event.json' },
  },
  raw: booleanRow({ describe: 'Send the body as given even when it is not JSON (the target should answer 400).' }),
  'event-id': textRow({ describe: 'Webhook-Event-Id to send (default: a fresh UUID v4); repeat one to see the 409. e.g. --event-id 6f1c…' }),
  timestamp: textRow({ describe: 'Webhook-Timestamp to send, Unix seconds (default: the target\'s clock hook, else now). e.g. --timestamp 1767225600' }),
  break: listRow({
    describe: `Break one thing on purpose (repeatable): ${Object.keys(BREAKS).join(', ')}. e.g. --break signature`,
    check: (name, flag) => {
      if (!(name in BREAKS)) throw usage(flag, `unknown --break "${name.slice(0, 40)}"`, `One of: ${Object.keys(BREAKS).join(', ')}.`);
    },
  }),
  replay: textRow({
    describe:
      'Send a failure\'s reproduction again instead (a file a run wrote under <out>/reproductions/, named by its "reproduce:" line): signed anew with a fresh timestamp ' +
      '(and a fresh event ID unless the check is about it), the same body and the same broken rule; exit 0 when the status is the one the run got. e.g. --replay reports/reproductions/WH-HMAC-08.json',
  }),
  'dry-run': booleanRow({ describe: 'Print the signed request as a curl command instead of sending it (shows the signature or JWT, never a secret or key).' }),
  seed: SHARED_OPTIONS.seed,
  timeout: SHARED_OPTIONS.timeout,
  'max-duration': SHARED_OPTIONS['max-duration'],
  out: SHARED_OPTIONS.out,
  strict: SHARED_OPTIONS.strict,
} as const satisfies Record<string, OptionRow<unknown>>;

export const SEND_EXAMPLES: ReadonlyArray<[string, string]> = [
  ['$0 send --profile reports/sandbox.target.json --listener hmac --data \'{"user":"u-1"}\'', 'one signed HMAC webhook: 200'],
  ['$0 send --profile p.json --listener hmac --event-id 0b6c2f1e-5d0a-4c1b-9f3e-2a7d8c9e1f00 --data \'{}\'', 'twice: 200 then 409'],
  ['$0 send --profile p.json --listener jwt --file event.json --break signature', 'a JWT signed by the wrong key: 401'],
  ['cat event.json | $0 send --profile p.json --listener hmac --file - --dry-run', 'print the curl command instead'],
];

export type SendOptions = OptionValues<typeof SEND_OPTIONS>;

export interface SendPlan {
  profilePath: string;
  /** `--replay FILE`: a reproduction to send again; nothing else of the plan but the profile and client applies. */
  replay?: string;
  listener: ListenerKey;
  body: { data: string } | { file: string } | { none: true };
  raw: boolean;
  eventId?: string;
  timestamp?: string;
  breaks: BreakName[];
  dryRun: boolean;
  /** Seed of the default body (random when absent); the event ID stays fresh unless --event-id. */
  seed?: string;
  /** The client's settings from the rows tagged for it (--timeout): handed whole to createTargetClient. */
  client: ClientSettings;
  /** Deadline of the whole send (send-outcome.ts). */
  maxDurationMs?: number;
  /** Folder of send-exchange.json. */
  outDir: string;
  /** Exit on the status service.md gives for the request, not on 2xx. */
  strict: boolean;
}

const usage = (field: string, message: string, hint?: string): HarnessError =>
  new HarnessError('USAGE', message, { field, ...(hint ? { hint } : {}) });

/** A header value the user chose: printable ASCII only, so it cannot split or smuggle headers. */
function headerValue(field: string, value: string): string {
  if (!/^[\x20-\x7e]+$/.test(value)) throw usage(field, `${field} must be printable ASCII without line breaks`);
  return value;
}

export function parseSendArgs(args: SendOptions): SendPlan {
  if (args.profile === undefined || args.profile.trim() === '') {
    throw usage('--profile', 'send needs --profile: the target profile that holds the listener', 'Start `access-conformance serve` and pass the profile it writes.');
  }
  if (args.replay !== undefined) return replayPlan(args);
  if (args.listener === undefined || args.listener.trim() === '') {
    throw usage('--listener', 'send needs --listener: which listener of the profile to send to', `One of: ${LISTENER_KEYS.join(', ')}.`);
  }
  const listener = LISTENER_KEYS.find((key) => key === args.listener);
  if (listener === undefined) {
    // The key is echoed only when it looks like a key: it may be a pasted secret.
    const shown = /^[A-Za-z][A-Za-z0-9-]{0,40}$/.test(args.listener) ? `"${args.listener}"` : '(not shown)';
    throw usage('--listener', `unknown listener key ${shown}`, `One of: ${LISTENER_KEYS.join(', ')}.`);
  }
  if (args.data !== undefined && args.file !== undefined) throw usage('--data', 'give the body with --data or --file, not both');
  const breaks = [...new Set(args.break)] as BreakName[];
  if (breaks.includes('event-id') && args.eventId !== undefined) throw usage('--break', '--break event-id replaces the event ID: leave out --event-id');
  if (breaks.includes('timestamp') && args.timestamp !== undefined) throw usage('--break', '--break timestamp replaces the timestamp: leave out --timestamp');
  return {
    profilePath: args.profile,
    listener,
    body: args.data !== undefined ? { data: args.data } : args.file !== undefined ? { file: args.file } : { none: true },
    raw: args.raw,
    ...(args.eventId !== undefined ? { eventId: headerValue('--event-id', String(args.eventId)) } : {}),
    ...(args.timestamp !== undefined ? { timestamp: headerValue('--timestamp', String(args.timestamp)) } : {}),
    breaks,
    dryRun: args.dryRun,
    ...(args.seed === undefined ? {} : { seed: args.seed }),
    client: clientSettings(SEND_OPTIONS, args),
    ...(args.maxDuration === undefined ? {} : { maxDurationMs: args.maxDuration }),
    outDir: args.out,
    strict: args.strict,
  };
}

/** `--replay FILE`: the reproduction decides the listener, body and breaks, so those flags are refused. */
function replayPlan(args: SendOptions): SendPlan {
  // --strict too: a replay's exit already says whether the run's status came back.
  const given = (['listener', 'data', 'file', 'break', 'event-id', 'timestamp', 'raw', 'dry-run', 'strict'] as const).filter((flag) => {
    const value = args[flag === 'event-id' ? 'eventId' : flag === 'dry-run' ? 'dryRun' : flag];
    return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false;
  });
  if (given.length > 0) throw usage(`--${given[0]}`, `--replay sends the reproduction as the run built it: leave out --${given.join(', --')}`);
  if (args.replay === undefined || args.replay.trim() === '') throw usage('--replay', '--replay needs a reproduction file');
  return {
    profilePath: args.profile!,
    replay: args.replay,
    // Not read on a replay (the recipe names its listener, body and breaks); set so the plan stays one type.
    listener: 'hmac',
    body: { none: true },
    raw: false,
    breaks: [],
    dryRun: false,
    client: clientSettings(SEND_OPTIONS, args),
    ...(args.maxDuration === undefined ? {} : { maxDurationMs: args.maxDuration }),
    outDir: args.out,
    strict: false,
  };
}
