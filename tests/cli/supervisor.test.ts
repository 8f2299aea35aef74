import { describe, expect, it } from 'vitest';
import { deadlineOf, flagValue, supervisedCommand } from '../../src/cli/supervisor.js';
import { stoppedReport } from '../../src/cli/stopped-report.js';

describe('the supervisor reads what it needs from the command line', () => {
  it('supervises run, load, send and serve; not list, diff, --help or a child', () => {
    expect(supervisedCommand(['run', '--only', 'CRED-01'], {})).toBe('run');
    expect(supervisedCommand(['load', 'prepare'], {})).toBe('load');
    expect(supervisedCommand(['send'], {})).toBe('send');
    expect(supervisedCommand(['serve'], {})).toBe('serve');
    expect(supervisedCommand(['list'], {})).toBeUndefined();
    expect(supervisedCommand(['diff', 'a', 'b'], {})).toBeUndefined();
    expect(supervisedCommand(['run', '--help'], {})).toBeUndefined();
    expect(supervisedCommand(['--version'], {})).toBeUndefined();
    expect(supervisedCommand(['run'], { AC_SUPERVISED_CHILD: '1' })).toBeUndefined();
  });

  it('takes --max-duration and --out as the child will: the last one given, both spellings, or the environment', () => {
    expect(deadlineOf(['run', '--max-duration', '10s'], {})).toBe(10_000);
    expect(deadlineOf(['run', '--max-duration=2m', '--max-duration', '1500ms'], {})).toBe(1500);
    expect(deadlineOf(['run'], { ACCESS_CONFORMANCE_MAX_DURATION: '3s' })).toBe(3000);
    expect(deadlineOf(['run', '--max-duration', '30'], {})).toBeUndefined();
    expect(deadlineOf(['run'], {})).toBeUndefined();
    expect(flagValue(['run', '--out', 'build/conformance'], 'out', {})).toBe('build/conformance');
    expect(flagValue(['run', '--out=x'], 'out', {})).toBe('x');
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
