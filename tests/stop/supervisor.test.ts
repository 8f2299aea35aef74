/**
 * The supervisor's pure parts, the flags it reads for a child that ended before it told them (through the
 * command's own option rows, as the child reads them), the short stopped report, the wrapper watch and the
 * timing table's relations. The processes themselves are driven end to end by tests/hostile/start-up.test.ts
 * and tests/stop/wrapper-death.e2e.test.ts.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { supervisedCommand } from '../../src/stop/supervised-child.js';
import { stoppedReport } from '../../src/stop/stopped-report.js';
import { STOP_TIMINGS, stopMs } from '../../src/stop/timings.js';
import { wrapperWatch } from '../../src/stop/wrapper.js';
import { stopFlags } from '../../src/cli/stop-flags.js';
import { describeWith } from '../support/capabilities.js';

describe('the supervisor reads what it needs', () => {
  it('supervises run, load, send and serve; not list, diff, --help or a child', () => {
    expect(supervisedCommand(['run', '--only', 'CRED-01'], {})).toBe('run');
    expect(supervisedCommand(['load', 'prepare'], {})).toBe('load');
    expect(supervisedCommand(['send'], {})).toBe('send');
    expect(supervisedCommand(['serve'], {})).toBe('serve');
    expect(supervisedCommand(['list'], {})).toBeUndefined();
    expect(supervisedCommand(['diff', 'a', 'b'], {})).toBeUndefined();
    expect(supervisedCommand(['run', '--help'], {})).toBeUndefined();
    expect(supervisedCommand(['--version'], {})).toBeUndefined();
    expect(supervisedCommand(['run'], { AC_SUPERVISED_CHILD: String(Date.now()) })).toBeUndefined();
    expect(supervisedCommand(['run'], { AC_NO_SUPERVISOR: '1' })).toBeUndefined();
  });

  it('reads --max-duration and --out as the child will: its option rows, the last spelling, the environment', async () => {
    expect(await stopFlags(['run', '--max-duration', '10s', '--out', 'build/conformance'], {})).toEqual({ maxDurationMs: 10_000, reportDir: `${process.cwd()}/build/conformance` });
    expect(await stopFlags(['run', '--out=x', '--strict'], {})).toEqual({ reportDir: `${process.cwd()}/x` });
    expect(await stopFlags(['load', '--scenario', 'webhook-hmac'], { ACCESS_CONFORMANCE_MAX_DURATION: '3s' })).toEqual({ maxDurationMs: 3000, reportDir: `${process.cwd()}/reports` });
    // The command line wins over the variable; a value the grammar refuses is the child's usage error, not a bound.
    expect((await stopFlags(['run', '--max-duration', '1500ms'], { ACCESS_CONFORMANCE_MAX_DURATION: '2m' })).maxDurationMs).toBe(1500);
    expect((await stopFlags(['run', '--max-duration', '30'], {})).maxDurationMs).toBeUndefined();
    // send, serve and `load prepare` write no report.json of a stop.
    expect(await stopFlags(['send', '--out', 'x'], {})).toEqual({});
    expect(await stopFlags(['load', 'prepare', '--out', 'corpus.json'], {})).toEqual({});
  });

  it('writes a stopped report that says interrupted and names the phase', () => {
    const report = stoppedReport({
      command: 'run',
      code: 'INTERRUPTED',
      message: 'the run was interrupted by SIGINT',
      signal: 'SIGINT',
      phase: 'keys',
      exitCode: 130,
      startedAt: Date.now() - 1000,
      writtenBy: 'supervisor',
      tool: { name: 'access-conformance', version: '0.0.0' },
    });
    expect(report).toMatchObject({
      format: 'access-conformance-report',
      interrupted: true,
      aborted: { code: 'INTERRUPTED', signal: 'SIGINT', phase: 'keys' },
      verdict: { exitCode: 130 },
      results: [],
    });
  });
});

describe('the stop timings', () => {
  it('each says why it exists, and the relations the reasons rely on hold', () => {
    for (const [name, timing] of Object.entries(STOP_TIMINGS)) {
      expect(timing.ms, name).toBeGreaterThan(0);
      expect(timing.why.length, name).toBeGreaterThan(40);
    }
    // A live command gets to write its reports before its parent gives up on it.
    expect(stopMs('stopGrace')).toBeGreaterThan(stopMs('reportAfterStop'));
    // Several heartbeats fit in the "frozen" window, so one late beat is not a freeze.
    expect(stopMs('frozen')).toBeGreaterThanOrEqual(4 * stopMs('heartbeat'));
    // A dead wrapper is noticed within a second (issue 39).
    expect(stopMs('watch')).toBeLessThanOrEqual(500);
    expect(stopMs('stall')).toBeGreaterThan(stopMs('frozen'));
    // A fault run ends at its own deadline before its worker is killed, so it is judged.
    expect(stopMs('faultRun')).toBeLessThan(stopMs('faultWorker'));
    // A container's stop and the end of its log fit in a forced stop; a client's close in one cleanup step.
    expect(stopMs('containerStop') + stopMs('containerLogDrain')).toBeLessThan(stopMs('forcedClose'));
    expect(stopMs('clientCloseGrace')).toBeLessThan(stopMs('cleanup'));
  });
});

describeWith('linux', process.platform === 'linux', 'the wrapper watch reads /proc', 'the wrapper watch (Linux: /proc)', () => {
  it('is off unless npm started the process', () => {
    expect(wrapperWatch({})).toBeUndefined();
  });

  it('sees a SIGKILLed wrapper through the shell between: the shell lives on, reparented', async () => {
    // wrapper (stands in for npm) → sh -c → node that watches; the wrapper is then SIGKILLed.
    const script = `const { wrapperWatch } = await import(${JSON.stringify(new URL('../../dist/src/stop/wrapper.js', import.meta.url).href)});
      const gone = wrapperWatch(); console.log('watching ' + (gone !== undefined));
      const started = Date.now(); const t = setInterval(() => { if (gone()) { console.log('gone ' + (Date.now() - started)); process.exit(0); } }, 50);
      setTimeout(() => { console.log('timeout'); process.exit(1); }, 20000);`;
    const wrapper = spawn(process.execPath, ['-e', `require('node:child_process').spawn('sh', ['-c', ${JSON.stringify(`${process.execPath} --input-type=module -e "$WATCH"; echo sh-done`)}], { stdio: 'inherit' }); setInterval(() => {}, 1000);`], {
      env: { ...process.env, npm_command: 'exec', WATCH: script },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    wrapper.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const seen = (text: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const bound = setTimeout(() => reject(new Error(`no "${text}" in: ${out}`)), 20_000);
        const look = setInterval(() => {
          if (!out.includes(text)) return;
          clearInterval(look);
          clearTimeout(bound);
          resolve();
        }, 20);
      });
    await seen('watching true');
    // Keep listening after the kill: the shell (and the watcher) still write to the same pipe.
    const stdout = wrapper.stdout;
    wrapper.kill('SIGKILL');
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    await seen('sh-done');
    expect(out).toMatch(/gone \d+/);
  }, 30_000);
});
