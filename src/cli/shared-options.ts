/**
 * The flags several commands share, each declared once with its parser and its default: `run`, `serve`,
 * `send` and `load` take them from here, so `--timeout 30s`, `--seed x`, `--out dir` or `--strict=no`
 * mean the same in every command (tests/cli/same-flags.e2e.test.ts drives each command with them). A
 * command's own table (run-options.ts, serve.ts, send-options.ts, load-options.ts) spreads the rows it
 * takes; docs/running.md lists them (tests/docs/flag-table.test.ts compares the two).
 *
 * Every command takes --timeout, --max-duration, --seed and --out, each with a meaning of its own there
 * (no flag is accepted and ignored). --strict is left out of `serve` on purpose: strict turns SHOULD-level
 * findings into failures, and serve judges nothing; it is the target, not the harness, and the reference
 * already does what every SHOULD asks (variants and faults change it from outside, by name).
 */
import { DEFAULT_TIMEOUT_MS } from '../defaults.js';
import { CHECK_TIMEOUT_FACTOR } from '../engine/limits.js';
import { MAX_TIMER_MS } from '../values.js';
import { booleanRow, clientRow, durationRow, listRow, textRow, type OptionRow } from './option-grammar.js';

/**
 * Shared flags a command leaves out on purpose, with the reason its usage error gives (instead of a bare
 * "Unknown argument"), so that the one exception to "every command takes them" explains itself.
 */
export const NOT_TAKEN: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  serve: {
    strict: 'serve judges nothing (it is the target, and the reference already does what every SHOULD asks); --strict applies to run, send and load',
  },
};

/** `10s`, `250ms`: a default in milliseconds as a user would type it. */
export function durationText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

export const SHARED_OPTIONS = {
  profile: textRow({
    describe: 'Target profile (JSON) of the implementation (docs/profile.md). run and load start the embedded reference without it; send needs it. e.g. --profile target.json',
  }),
  out: textRow({
    default: 'reports',
    describe:
      'Folder for the files a command writes: run and load their reports (run first removes the report files an earlier run left there and says which; load prepare: the corpus, or a .json file path); ' +
      'serve the profile (sandbox.target.json) and its key files unless --profile-out; send the redacted exchange (send-exchange.json). e.g. --out build/conformance',
  }),
  seed: textRow({
    describe:
      'Seed of every generated value (bodies, tenant data, names); run scopes it by each check\'s ID, so the same seed sends the same bodies at any --concurrency. ' +
      'Event IDs stay fresh on purpose (a target remembers them for 7 days and refuses a repeat as a replay). Printed, random when absent. e.g. --seed 5eed1234',
  }),
  timeout: clientRow(
    durationRow({
      default: durationText(DEFAULT_TIMEOUT_MS),
      // A check may take CHECK_TIMEOUT_FACTOR request timeouts: that product must still be a valid timer.
      maxMs: Math.floor(MAX_TIMER_MS / CHECK_TIMEOUT_FACTOR),
      describe:
        `Per-request timeout (set-up and priming included); a run's check may take up to ${CHECK_TIMEOUT_FACTOR} times this. ` +
        "serve: the reference's own outbound requests (a JWT listener's JWKS fetch). e.g. --timeout 20s",
    }),
    'timeoutMs',
  ),
  'max-duration': durationRow({
    minMs: 1000,
    describe:
      'Deadline of the whole command: run records the unfinished checks as errored and writes the reports (exit 2); load stops sending and writes its report (exit 2); ' +
      'send gives up (clock hook, token and request included; exit 2); serve stops (exit 0). ' +
      'run\'s default: 30 s plus 0.5 s a selected check, at least 3 request timeouts, at most 2 min; printed in the header. e.g. --max-duration 10m',
  }),
  strict: booleanRow({
    describe:
      'No tolerance: run: SHOULD failures fail the run too (exit 1), without it they are warnings; send: exit 0 only when the answer is the status service.md gives for the request sent (--break included), else 1; ' +
      'load: adds the thresholds errors<=0% and dropped<=0% (any error or dropped arrival: exit 1). Not serve: it judges nothing.',
  }),
  quiet: booleanRow({ describe: 'No progress lines (load: the line each second).' }),
  fault: listRow({
    describe:
      'Start the embedded reference with a named fault (repeatable) to see checks fail, or a legitimate variant or stack (a reading the spec leaves open) to see it pass; ' +
      'serve --list-faults and --list-variants list them. run: without --profile and --image. e.g. --fault secret-wrong-prefix, --fault stack-go-net-http',
  }),
} as const satisfies Record<string, OptionRow<unknown>>;
