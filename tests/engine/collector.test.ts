/** The phase collector: group events, results, and checks no test reported (suite missing or broken). */
import { describe, expect, it } from 'vitest';
import { PhaseCollector } from '../../src/engine/collector.js';
import { Emitter } from '../../src/engine/emitter.js';
import type { CheckResult, EngineReporter, GroupEndEvent } from '../../src/engine/types.js';
import type { Requirement } from '../../src/requirements.js';

function req(id: string, group: string): Requirement {
  return { id, level: 'MUST', section: '1', text: `text ${id}`, group, needs: [] } as unknown as Requirement;
}

function recorder(): { reporter: EngineReporter; events: string[]; ends: GroupEndEvent[] } {
  const events: string[] = [];
  const ends: GroupEndEvent[] = [];
  return {
    events,
    ends,
    reporter: {
      onGroupStart: (e) => void events.push(`start ${e.group} ${e.checks}`),
      onCheckEnd: (r) => void events.push(`check ${r.id} ${r.state}`),
      onGroupEnd: (e) => {
        events.push(`end ${e.group}`);
        ends.push(e);
      },
    },
  };
}

describe('PhaseCollector', () => {
  it('emits group start, checks and group end; fills unreported checks; closes groups without a suite', async () => {
    const rec = recorder();
    const emitter = new Emitter([rec.reporter]);
    const results = new Map<string, CheckResult>();
    const collector = new PhaseCollector('main', [req('A-1', 'a'), req('A-2', 'a'), req('B-1', 'b'), req('C-1', 'c')], results, emitter, new Set(['a', 'b']));
    expect(collector.runnableGroups()).toEqual(['a', 'b']);

    collector.moduleStart('a');
    collector.check('a', { id: 'A-1', state: 'passed', errors: [], durationMs: 4 });
    collector.check('a', { id: 'A-1', state: 'failed', errors: [{ message: 'duplicate title' }], durationMs: 4 });
    collector.moduleEnd('a', []);
    collector.moduleEnd('b', ['SyntaxError: Unexpected token']);
    collector.finishAll();
    await emitter.flush();

    expect(rec.events).toEqual([
      'start a 2',
      'check A-1 passed',
      'check A-2 skipped',
      'end a',
      'start b 1',
      'check B-1 errored',
      'end b',
      'start c 1',
      'check C-1 skipped',
      'end c',
    ]);
    expect(results.get('A-2')!.reason).toContain('has no test for A-2');
    expect(results.get('B-1')!.harnessError!.message).toContain('SyntaxError');
    expect(results.get('C-1')!.reason).toContain('no suite file for group c');
    expect(rec.ends[0]!.counts).toEqual({ passed: 1, failed: 0, skipped: 1, errored: 0 });
  });

  it('the heartbeat lists groups that started and have not ended', () => {
    const collector = new PhaseCollector('clock', [req('A-1', 'a'), req('A-2', 'a')], new Map(), new Emitter([]), new Set(['a']));
    collector.moduleStart('a');
    collector.check('a', { id: 'A-1', state: 'passed', errors: [], durationMs: 1 });
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
