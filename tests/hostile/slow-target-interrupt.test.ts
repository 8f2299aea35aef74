/**
 * Ctrl-C against a slow target (issue 46): every answer late, SIGINT once the checks are well under
 * way. The run must end, its four reports written and saying interrupted, exit 130, within 5 s of the
 * signal. The regression this keeps away: after a stop the clock-moving checks' hook still waited (up to
 * 15 s) for the stopped checks' bodies, each still walking the slow target page by page, so the run ended
 * 3.4 s after the signal on an idle machine and 15.5 s under load.
 *
 * The 5 s is a stop bound (what a user waits after Ctrl-C), not a speed target: the fixed run ends about a
 * second after the signal on an idle machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import { ALL_REPORTERS, readReports, runHostile } from './support.js';

/**
 * How late the target answers every request. The issue's case is 150 ms; there the stopped bodies' own work
 * outlasted the bound only on a loaded machine (measured idle, before the fix: 1.4-4.5 s after the signal).
 * At 300 ms it does on an idle one too (7.6 s before the fix, 1.1-1.9 s after), so this test fails on the
 * regression wherever it runs.
 */
const ANSWER_DELAY_MS = 300;
/** The bound from the signal to the process's end. */
const STOP_BOUND_MS = 5_000;
/** Group lines printed before the signal: the fast groups are done, the slow ones (page walks, watches) in flight. */
const GROUPS_BEFORE_SIGNAL = 8;

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-slow-target-'));
  sandbox = await startSandbox({
    hooks: true,
    seed: 'slow-target',
    profileDir: dir,
    logger: () => {},
    customize: {
      wrapHandler: (handle) => async (request) => {
        await new Promise((resolve) => setTimeout(resolve, ANSWER_DELAY_MS));
        return handle(request);
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

test(`SIGINT against a target that answers ${ANSWER_DELAY_MS} ms late: reports written, exit 130, within ${STOP_BOUND_MS} ms of the signal`, async () => {
  const out = join(dir, 'reports');
  let signalledAt: number | undefined;
  const result = await runHostile(['run', '--profile', sandbox.profilePath, ...ALL_REPORTERS, '--out', out, '--seed', 'slow-target'], {
    timeoutMs: 120_000,
    signal: {
      name: 'SIGINT',
      when: (stdout) => {
        const ready = (stdout.match(/\.\.\. \d+ passed/g) ?? []).length >= GROUPS_BEFORE_SIGNAL;
        if (ready) signalledAt = Date.now();
        return ready;
      },
    },
  });
  const endedAt = Date.now();
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(130);
  expect(signalledAt, 'the signal was sent mid-run').toBeDefined();
  const reports = await readReports(out);
  expect(reports.json.verdict).toMatchObject({ status: 'interrupted', exitCode: 130, code: 'INTERRUPTED' });
  // The run was stopped with checks left, not after them: the bound measures a stop.
  const interrupted = reports.json.results.filter((r) => r.harnessError?.code === 'INTERRUPTED');
  expect(interrupted.length, 'checks the stop left unfinished').toBeGreaterThan(0);
  expect(endedAt - signalledAt!, `ended ${endedAt - signalledAt!} ms after the signal\n${result.stdout}`).toBeLessThan(STOP_BOUND_MS);
}, 150_000);
