/** The run collector: group events by phase, results, and checks no test reported (suite missing or broken). */
import { describe, expect, it } from 'vitest';
import { RunCollector } from '../../src/engine/collector.js';
import { Emitter } from '../../src/engine/emitter.js';
import type { CheckResult, EngineReporter, GroupEndEvent } from '../../src/engine/types.js';
import type { Requirement } from '../../src/requirements/catalogue.js';

function req(id: string, group: string, movesClock = false): Requirement {
  return { id, level: 'MUST', section: '1', text: `text ${id}`, group, needs: [], movesClock } as unknown as Requirement;
}

function recorder(): { reporter: EngineReporter; events: string[]; ends: GroupEndEvent[] } {
  const events: string[] = [];
  const ends: GroupEndEvent[] = [];
  return {
    events,
    ends,
    reporter: {
      onGroupStart: (e) => void events.push(`start ${e.group} ${e.phase} ${e.checks}`),
      onCheckEnd: (r) => void events.push(`check ${r.id} ${r.state}`),
      onGroupEnd: (e) => {
        events.push(`end ${e.group} ${e.phase}`);
        ends.push(e);
      },
    },
  };
}

describe('RunCollector', () => {
  it('a group starts with its first check and ends with its last; unreported checks are filled; groups without a suite close', async () => {
    const rec = recorder();
    const emitter = new Emitter([rec.reporter]);
    const results = new Map<string, CheckResult>();
    const collector = new RunCollector([req('A-1', 'a'), req('A-2', 'a'), req('B-1', 'b'), req('C-1', 'c')], results, emitter, new Set(['a', 'b']));
    expect(collector.runnableGroups()).toEqual(['a', 'b']);
    expect(collector.idsOf('a')).toEqual(['A-1', 'A-2']);

    collector.checkStarted('A-1');
    collector.check({ id: 'A-1', state: 'passed', errors: [], durationMs: 4 });
    collector.check({ id: 'A-1', state: 'failed', errors: [{ message: 'duplicate title' }], durationMs: 4 });
    collector.check({ id: 'B-1', state: 'passed', errors: [], durationMs: 1 });
    collector.finishAll();
    await emitter.flush();

    expect(rec.events).toEqual([
      'start a main 2',
      'check A-1 passed',
      'start b main 1',
      'check B-1 passed',
      'end b main',
      'check A-2 skipped',
      'end a main',
      'start c main 1',
      'check C-1 skipped',
      'end c main',
    ]);
    expect(results.get('A-2')!.reason).toContain('has no test for A-2');
    expect(results.get('C-1')!.reason).toContain('no suite file for group c');
    expect(rec.ends.find((e) => e.group === 'a')!.counts).toEqual({ passed: 1, failed: 0, skipped: 1, errored: 0, blocked: 0 });
  });

  it('a suite with clock-moving checks is two groups, main and clock, each with its own checks', async () => {
    const rec = recorder();
    const emitter = new Emitter([rec.reporter]);
    const results = new Map<string, CheckResult>();
    const collector = new RunCollector([req('A-1', 'a'), req('A-9', 'a', true)], results, emitter, new Set(['a']));
    expect(collector.runnableGroups()).toEqual(['a']);
    expect(collector.idsOf('a')).toEqual(['A-1', 'A-9']);
    collector.check({ id: 'A-1', state: 'passed', errors: [], durationMs: 1 });
    collector.check({ id: 'A-9', state: 'passed', errors: [], durationMs: 1 });
    await emitter.flush();
    expect(rec.events).toEqual(['start a main 1', 'check A-1 passed', 'end a main', 'start a clock 1', 'check A-9 passed', 'end a clock']);
    expect(results.get('A-9')!.phase).toBe('clock');
  });

  it('a failed test file errors every open group with the reason', async () => {
    const results = new Map<string, CheckResult>();
    const collector = new RunCollector([req('A-1', 'a'), req('B-1', 'b')], results, new Emitter([]), new Set(['a', 'b']));
    collector.check({ id: 'A-1', state: 'passed', errors: [], durationMs: 1 });
    collector.runFailed(['SyntaxError: Unexpected token']);
    collector.finishAll();
    expect(results.get('A-1')!.state).toBe('passed');
    expect(results.get('B-1')!.harnessError!.message).toContain('SyntaxError');
  });

  it('a failed test file leaves a group without a suite file not implemented, not errored', async () => {
    const results = new Map<string, CheckResult>();
    const collector = new RunCollector([req('A-1', 'a'), req('C-1', 'c')], results, new Emitter([]), new Set(['a']));
    collector.runFailed(['Error: worker crashed']);
    collector.finishAll();
    expect(results.get('A-1')).toMatchObject({ state: 'errored' });
    expect(results.get('C-1')).toMatchObject({ state: 'skipped', reason: 'not implemented: no suite file for group c' });
  });

  it('the heartbeat lists groups that started and have not ended', () => {
    const collector = new RunCollector([req('A-1', 'a', true), req('A-2', 'a', true)], new Map(), new Emitter([]), new Set(['a']));
    collector.checkStarted('A-1');
    collector.check({ id: 'A-1', state: 'passed', errors: [], durationMs: 1 });
    const beat = collector.heartbeat(Date.now() + 20_000, Date.now() - 5_000);
    expect(beat.running).toHaveLength(1);
    expect(beat.running[0]).toMatchObject({ group: 'a', phase: 'clock', done: 1, checks: 2 });
    expect(beat.running[0]!.elapsedMs).toBeGreaterThanOrEqual(20_000);
  });

  it('a reporter that throws does not stop the others; flush rethrows', async () => {
    const seen: string[] = [];
    const emitter = new Emitter([{ onHeartbeat: () => { throw new Error('broken reporter'); } }, { onHeartbeat: () => void seen.push('second') }]);
    emitter.emit('onHeartbeat', { running: [], elapsedMs: 0 });
    await expect(emitter.flush()).rejects.toThrow('broken reporter');
    expect(seen).toEqual(['second']);
  });
});
