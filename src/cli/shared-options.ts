/**
 * The flags several commands share, each declared once with its parser and its default: `run`, `serve`,
 * `send` and `load` take them from here, so `--timeout 30s`, `--seed x`, `--out dir` or `--strict=no`
 * mean the same in every command (tests/cli/same-flags.e2e.test.ts drives each command with them). A
 * command's own table (run-options.ts, serve.ts, send-options.ts, load-options.ts) spreads the rows it
 * takes; docs/running.md lists them (tests/docs/flag-table.test.ts compares the two).
 *
 * Every command takes --timeout, --max-duration, --seed and --out, each with a meaning of its own there
 * (no flag is accepted and ignored): each row says what it does in each command that takes it
 * (perCommand), and that command's --help shows only that (tests/cli/help.test.ts). --strict is left out of `serve` on purpose: strict turns SHOULD-level
 * findings into failures, and serve judges nothing; it is the target, not the harness, and the reference
 * already does what every SHOULD asks (variants and faults change it from outside, by name).
 */
import { DEFAULT_TIMEOUT_MS } from '../defaults.js';
import { CHECK_TIMEOUT_FACTOR } from '../engine/limits.js';
import { MAX_TIMER_MS } from '../values.js';
import { parseSubject } from '../attest/statement.js';
import { booleanRow, clientRow, customRow, durationRow, listRow, perCommand, textRow, type OptionRow } from './option-grammar.js';

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
  profile: perCommand(
    textRow({ describe: 'Target profile (JSON) of the implementation (docs/profile.md). e.g. --profile target.json' }),
    {
      run: 'Target profile (JSON) of the implementation to check (docs/profile.md); without it (and without --image) the embedded reference is started and checked. e.g. --profile target.json',
      send: 'Target profile (JSON) naming the listener, its secret or keys and the token credentials (docs/profile.md); required. e.g. --profile target.json',
      load: 'Target profile (JSON) of the implementation to load (docs/profile.md); without it the embedded reference is started and loaded. e.g. --profile target.json',
      list: 'Target profile (JSON): with --openapi, or alone when the profile names "openapi", the operations are listed as this profile would have them checked (its path parameters). e.g. --profile target.json',
    },
  ),
  out: perCommand(
    textRow({ default: 'reports', describe: 'Folder for the files the command writes. e.g. --out build/conformance' }),
    {
      run: 'Folder for the reports (--reporter) and reproductions; report files an earlier run left there are removed first, and named. e.g. --out build/conformance',
      serve: 'Folder for the target profile (sandbox.target.json) and its key and CA files, unless --profile-out names the profile file. e.g. --out build/sandbox',
      send: 'Folder for send-exchange.json: the exchanges made (clock hook, token, the webhook), recorded and redacted, written on every way out once it starts talking to the target (a timeout, the deadline or a signal included). e.g. --out build/send',
      load: 'Folder for the load report (JSON and HTML); `load prepare`: for the corpus (DIR/corpus.json), or the corpus file itself when the value ends in .json. e.g. --out build/load',
    },
  ),
  seed: perCommand(
    textRow({ describe: 'Seed of every generated value; printed, random when absent. e.g. --seed 5eed1234' }),
    {
      run:
        "Seed of every generated value (bodies, tenant data, names), scoped by each check's ID: the same seed sends the same bodies at any --concurrency. " +
        'Event IDs stay fresh on purpose (a target remembers them for 7 days and refuses a repeat as a replay). Printed, random when absent. e.g. --seed 5eed1234',
      serve: 'Seed of the generated tenant (its names, IDs and data). Printed, random when absent. e.g. --seed 5eed1234',
      send: 'Seed of the generated body when neither --data nor --file gives one; the event ID stays fresh unless --event-id names one. Random when absent. e.g. --seed 5eed1234',
      load: 'Seed of the generated bodies (and of the embedded tenant without --profile); `load prepare`: of the corpus bodies. Event IDs stay fresh. e.g. --seed 5eed1234',
    },
  ),
  timeout: perCommand(
    clientRow(
      durationRow({
        default: durationText(DEFAULT_TIMEOUT_MS),
        // A check may take CHECK_TIMEOUT_FACTOR request timeouts: that product must still be a valid timer.
        maxMs: Math.floor(MAX_TIMER_MS / CHECK_TIMEOUT_FACTOR),
        describe: 'Per-request timeout. e.g. --timeout 20s',
      }),
      'timeoutMs',
    ),
    {
      run: `Per-request timeout (set-up and priming included); a check may take up to ${CHECK_TIMEOUT_FACTOR} times this. e.g. --timeout 20s`,
      serve: "Timeout of the reference's own outbound requests: the JWKS fetch of a JWT listener (keep it below your clients' timeout). e.g. --timeout 5s",
      send: 'Timeout of each request made (clock hook, token, the webhook). e.g. --timeout 20s',
      load: 'Per-request timeout (set-up and priming included); a request past it counts as an error. e.g. --timeout 2s',
    },
  ),
  'max-duration': perCommand(
    durationRow({ minMs: 1000, describe: 'Deadline of the whole command. e.g. --max-duration 10m' }),
    {
      run:
        'Deadline of the whole run: the unfinished checks are recorded as errored (DEADLINE), every report is written, exit 2. ' +
        'Default: 30 s plus 0.5 s a selected check (each per-operation result counts), at least 3 request timeouts, at most 2 min plus 15 s per called operation; printed in the header. e.g. --max-duration 10m',
      serve: 'Stop serving after this long (exit 0); default: until SIGINT or SIGTERM. e.g. --max-duration 1h',
      send: 'Deadline of the whole send (clock hook, token and the request included): past it, DEADLINE, exit 2. Default: --timeout bounds each request. e.g. --max-duration 30s',
      load: 'Deadline of the whole load, set-up included: past it the sending stops and the report, which says so, is written; exit 2. Default: --duration bounds it. e.g. --max-duration 15m',
    },
  ),
  strict: perCommand(
    booleanRow({ describe: 'No tolerance: what would pass with a warning fails. Not serve: it judges nothing.' }),
    {
      run: 'SHOULD failures fail the run too (exit 1); without it they are warnings.',
      send: 'Exit 0 only when the answer is the status service.md gives for the request sent (--break included), else 1; without it 0 means 2xx.',
      load: 'Adds the thresholds errors<=0% and dropped<=0%: any error or dropped arrival exits 1.',
    },
  ),
  quiet: perCommand(booleanRow({ describe: 'No progress lines.' }), {
    load: 'No progress line each second (nor the signing progress of `load prepare`).',
    serve: 'No line for each refused request: the console prints its start lines only.',
  }),
  fault: perCommand(
    listRow({
      describe: 'Start the embedded reference with a named fault (repeatable), or a legitimate variant or stack. e.g. --fault secret-wrong-prefix',
    }),
    {
      run:
        'Check the embedded reference started with a named fault (repeatable), to see checks fail, or with a legitimate variant or stack (a reading the spec leaves open), to see it pass; ' +
        'not with --profile or --image. `serve --list-faults` and `--list-variants` name them. e.g. --fault secret-wrong-prefix, --fault stack-go-net-http',
      serve:
        'Serve the reference with a named fault (repeatable), or a legitimate variant or stack (a reading the spec leaves open); --list-faults and --list-variants name them. e.g. --fault secret-wrong-prefix',
    },
  ),
  subject: perCommand(
    customRow({
      tag: 'NAME@sha256:HEX',
      parse: (value, flag) => parseSubject(value, flag),
      describe: 'The subject of an attestation: a build or release by its SHA-256 digest. e.g. --subject ghcr.io/acme/access@sha256:<64 hex>',
    }),
    {
      run:
        "With --attest: what the attestation certifies, your build or release by its digest (default: the image's ID with --image, else the OpenAPI description's digest under the profile's baseUrl, said in the report). e.g. --subject ghcr.io/acme/access@sha256:<64 hex>",
      verify: 'The subject the attestation must be about (name and digest); without it the subject is shown, not checked. e.g. --subject ghcr.io/acme/access@sha256:<64 hex>',
    },
  ),
} as const satisfies Record<string, OptionRow<unknown>>;
