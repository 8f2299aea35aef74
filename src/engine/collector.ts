/**
 * Collects one phase's outcomes per group, fills in checks no test reported, and emits group and check
 * events. Groups are suite files; a group can appear in both phases (its clock-moving checks run later).
 */
import { runSecrets } from '../client/secret-registry.js';
import type { Requirement } from '../requirements.js';
import type { Emitter } from './emitter.js';
import { abortedResult, toCheckResult, unreportedResult } from './outcome.js';
import type { CheckResult, GroupCounts, HeartbeatEvent, Phase, RunAbort } from './types.js';
import type { PhaseSink, RawCheckOutcome } from './vitest-bridge.js';

interface GroupState {
  requirements: Requirement[];
  started: boolean;
  ended: boolean;
  startedAt: number;
  counts: GroupCounts;
  seen: Set<string>;
}

export class PhaseCollector implements PhaseSink {
  private readonly groups = new Map<string, GroupState>();
  private readonly byId = new Map<string, Requirement>();
  /** Last time a group ended, for the heartbeat. */
  lastProgressAt = Date.now();
  /** Set once the run stopped: later outcomes (a check still winding down) are not recorded. */
  private stoppedBy: RunAbort | undefined;

  constructor(
    readonly phase: Phase,
    requirements: readonly Requirement[],
    private readonly results: Map<string, CheckResult>,
    private readonly emitter: Emitter,
    private readonly suiteGroups: ReadonlySet<string>,
  ) {
    for (const req of requirements) {
      this.byId.set(req.id, req);
      const state = this.groups.get(req.group) ?? {
        requirements: [],
        started: false,
        ended: false,
        startedAt: 0,
        counts: { passed: 0, failed: 0, skipped: 0, errored: 0 },
        seen: new Set<string>(),
      };
      state.requirements.push(req);
      this.groups.set(req.group, state);
    }
  }

  /** Groups with a suite file to run in this phase. */
  runnableGroups(): string[] {
    return [...this.groups.keys()].filter((group) => this.suiteGroups.has(group));
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  moduleStart(group: string): void {
    const state = this.groups.get(group);
    if (!state || state.started) return;
    state.started = true;
    state.startedAt = Date.now();
    this.emitter.emit('onGroupStart', { group, phase: this.phase, checks: state.requirements.length });
  }

  check(group: string, outcome: RawCheckOutcome): void {
    // Before anything is emitted: the reporters' redaction must know the tokens this check obtained.
    if (outcome.meta?.secrets) runSecrets().addAll(outcome.meta.secrets);
    if (this.stoppedBy) return;
    const req = this.byId.get(outcome.id);
    const state = this.groups.get(req?.group ?? group);
    // A title whose ID is defined twice counts once: the first result stands.
    if (!req || !state || state.seen.has(req.id)) return;
    if (!state.started) this.moduleStart(req.group);
    this.record(state, toCheckResult(req, this.phase, outcome));
  }

  moduleEnd(group: string, errors: string[]): void {
    if (this.stoppedBy) return;
    this.finishGroup(group, errors);
  }

  /** Closes every group still open (no suite file, or a module vitest never reported). */
  finishAll(): void {
    for (const group of this.groups.keys()) this.finishGroup(group, []);
  }

  /** The run stopped: every check without a result is errored with the reason, and every group closed. */
  abort(reason: RunAbort): void {
    if (this.stoppedBy) return;
    this.stoppedBy = reason;
    for (const [group, state] of this.groups) {
      if (state.ended) continue;
      if (!state.started) this.moduleStart(group);
      for (const req of state.requirements) {
        if (!state.seen.has(req.id)) this.record(state, abortedResult(req, this.phase, reason));
      }
      this.finishGroup(group, []);
    }
  }

  heartbeat(now: number, runStartedAt: number): HeartbeatEvent {
    const running = [...this.groups.entries()]
      .filter(([, state]) => state.started && !state.ended)
      .map(([group, state]) => ({ group, phase: this.phase, done: state.seen.size, checks: state.requirements.length, elapsedMs: now - state.startedAt }));
    return { running, elapsedMs: now - runStartedAt };
  }

  /** Told each result a check reported (not the ones a stop filled in): the run guard's fallback count. */
  onResult: ((result: CheckResult) => void) | undefined;

  private record(state: GroupState, result: CheckResult): void {
    if (!this.stoppedBy) this.onResult?.(result);
    state.seen.add(result.id);
    state.counts[result.state] += 1;
    this.results.set(result.id, result);
    this.emitter.emit('onCheckEnd', result);
  }

  private finishGroup(group: string, errors: string[]): void {
    const state = this.groups.get(group);
    if (!state || state.ended) return;
    if (!state.started) this.moduleStart(group);
    for (const req of state.requirements) {
      if (!state.seen.has(req.id)) this.record(state, unreportedResult(req, this.phase, errors, this.suiteGroups.has(group)));
    }
    state.ended = true;
    this.lastProgressAt = Date.now();
    this.emitter.emit('onGroupEnd', {
      group,
      phase: this.phase,
      checks: state.requirements.length,
      counts: { ...state.counts },
      durationMs: Date.now() - state.startedAt,
    });
  }
}
