/**
 * Collects a run's outcomes by group, fills in checks no test reported, and emits group and check events.
 * One vitest run carries both phases (the clock-moving checks run last, alone): a group is a suite file in
 * one phase, so a suite with clock-moving checks is two groups, `main` and `clock`. A group starts when its
 * first check starts and ends when its last selected check reported.
 */
import { runSecrets } from '../client/secret-registry.js';
import type { Requirement } from '../requirements/catalogue.js';
import { resultKey } from './result-key.js';
import type { Emitter } from './emitter.js';
import { ControlGate } from './controls.js';
import { expandPerOperation, type ExpectedCheck, type OperationFilter, type OperationLike } from './operation-keys.js';
import { abortedResult, toCheckResult, unreportedResult } from './outcome.js';
import type { CheckResult, GroupCounts, HeartbeatEvent, Phase, RunAbort } from './types.js';
import type { RawCheckOutcome, RunSink } from './vitest-bridge.js';

interface GroupState {
  group: string;
  phase: Phase;
  /** One per expected result: a requirement, or one of its operations (`OPS-04@POST /api/v1/search/apps`). */
  requirements: ExpectedCheck[];
  started: boolean;
  ended: boolean;
  startedAt: number;
  /** When its first check had a slot (vitest starts every test at once, so the group "starts" early). */
  firstCheckAt?: number;
  counts: GroupCounts;
  seen: Set<string>;
}

const phaseOf = (req: Requirement): Phase => (req.movesClock ? 'clock' : 'main');

export class RunCollector implements RunSink {
  /** By `${phase} ${group}`, in catalogue order. */
  private readonly groups = new Map<string, GroupState>();
  /** By result key: the requirement ID, or `ID@METHOD path` for one operation's result. */
  private readonly byId = new Map<string, { check: ExpectedCheck; state: GroupState }>();
  /** Last time a group ended, for the heartbeat. */
  lastProgressAt = Date.now();
  /** Set once the run stopped: later outcomes (a check still winding down) are not recorded. */
  private stoppedBy: RunAbort | undefined;
  /** Told each result a check reported (not the ones a stop filled in): the run guard's fallback count. */
  onResult: ((result: CheckResult) => void) | undefined;
  /** Passed refusal checks wait here for their positive controls (controls.ts). */
  private readonly gate: ControlGate;
  /** The selected requirement IDs, catalogue order. */
  private readonly order: string[];

  constructor(
    requirements: readonly Requirement[],
    private readonly results: Map<string, CheckResult>,
    private readonly emitter: Emitter,
    private readonly suiteGroups: ReadonlySet<string>,
    /** Requirement ID → the selected refusal checks it is the control of, for the checks the run pulled in. */
    private readonly pulledIn: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.order = requirements.map((req) => req.id);
    for (const req of requirements) {
      const phase = phaseOf(req);
      const key = `${phase} ${req.group}`;
      let state = this.groups.get(key);
      if (!state) {
        state = { group: req.group, phase, requirements: [], started: false, ended: false, startedAt: 0, counts: { passed: 0, failed: 0, skipped: 0, errored: 0, blocked: 0 }, seen: new Set() };
        this.groups.set(key, state);
      }
      const check: ExpectedCheck = { key: req.id, req };
      state.requirements.push(check);
      this.byId.set(req.id, { check, state });
    }
    this.gate = new ControlGate({ has: (key) => this.byId.has(key) });
  }

  /**
   * The run's operations are known (ruling 34): each per-operation requirement expects one result per
   * called operation it applies to, keyed `ID@METHOD path`; one that applies to none keeps its one result
   * (its check skips saying why). Called before the suites run.
   */
  expandOperations(called: readonly OperationLike[] | undefined, keep?: OperationFilter): void {
    for (const state of this.groups.values()) {
      if (state.started) continue;
      state.requirements = state.requirements.flatMap((check) => {
        const expanded = expandPerOperation(check.req, called, keep);
        if (expanded.length === 1 && expanded[0]!.key === check.key) return [check];
        this.byId.delete(check.key);
        for (const instance of expanded) this.byId.set(instance.key, { check: instance, state });
        return expanded;
      });
    }
  }

  /** Suite groups with selected checks and a suite file to run. */
  runnableGroups(): string[] {
    return [...new Set([...this.groups.values()].map((state) => state.group))].filter((group) => this.suiteGroups.has(group));
  }

  /** Selected result keys of a suite group, both phases. */
  idsOf(group: string): string[] {
    return [...this.byId.values()].filter(({ check }) => check.req.group === group).map(({ check }) => check.key);
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Every expected result's key, catalogue order (a requirement's operations in the plan's order). */
  keys(): string[] {
    const byRequirement = new Map<string, string[]>();
    for (const { check } of this.byId.values()) {
      const keys = byRequirement.get(check.req.id) ?? [];
      keys.push(check.key);
      byRequirement.set(check.req.id, keys);
    }
    return this.order.flatMap((id) => byRequirement.get(id) ?? []);
  }

  checkStarted(id: string): void {
    const entry = this.byId.get(id);
    if (entry && !this.stoppedBy) this.startGroup(entry.state);
  }

  check(outcome: RawCheckOutcome): void {
    // Before anything is emitted: the reporters' redaction must know the tokens this check obtained.
    if (outcome.meta?.secrets) runSecrets().addAll(outcome.meta.secrets);
    if (this.stoppedBy) return;
    const entry = this.byId.get(outcome.id);
    // A title whose ID is defined twice counts once: the first result stands.
    if (!entry || this.has(entry.check.key)) return;
    this.startGroup(entry.state);
    const slotAt = outcome.meta?.startedAt;
    if (slotAt !== undefined && slotAt < (entry.state.firstCheckAt ?? Infinity)) entry.state.firstCheckAt = slotAt;
    const result = toCheckResult(entry.check, entry.state.phase, outcome);
    this.onResult?.(result);
    this.settle(this.gate.arrive(result), true);
  }

  /**
   * The run's test file failed outside any check: every group still open that has a suite file ends with
   * these errors. A group without one was never part of the run; finishAll() skips it as not implemented.
   */
  runFailed(errors: string[]): void {
    if (this.stoppedBy || errors.length === 0) return;
    for (const state of this.groups.values()) if (this.suiteGroups.has(state.group)) this.finishGroup(state, errors);
  }

  /** Closes every group still open (no suite file, a check vitest never reported). */
  finishAll(): void {
    for (const state of this.groups.values()) this.finishGroup(state, []);
    this.settle(this.gate.drain(), false);
    for (const state of this.groups.values()) this.finishGroup(state, []);
  }

  /** The run stopped: every check without a result is errored with the reason, and every group closed. */
  abort(reason: RunAbort): void {
    if (this.stoppedBy) return;
    this.stoppedBy = reason;
    for (const state of this.groups.values()) {
      if (state.ended) continue;
      this.startGroup(state);
      for (const check of state.requirements) {
        if (!this.has(check.key)) this.settle(this.gate.arrive(abortedResult(check, state.phase, reason)), false, true);
      }
    }
    this.settle(this.gate.drain(), false, true);
    for (const state of this.groups.values()) this.finishGroup(state, []);
  }

  heartbeat(now: number, runStartedAt: number): HeartbeatEvent {
    const running = [...this.groups.values()]
      .filter((state) => state.started && !state.ended)
      .map((state) => ({ group: state.group, phase: state.phase, done: state.seen.size, checks: state.requirements.length, elapsedMs: now - (state.firstCheckAt ?? state.startedAt) }));
    return { running, elapsedMs: now - runStartedAt };
  }

  private startGroup(state: GroupState): void {
    if (state.started) return;
    state.started = true;
    state.startedAt = Date.now();
    this.emitter.emit('onGroupStart', { group: state.group, phase: state.phase, checks: state.requirements.length });
  }

  /** Reported or held: a later outcome for the key is a duplicate. */
  private has(key: string): boolean {
    return this.byId.get(key)?.state.seen.has(key) === true || this.gate.isHeld(key);
  }

  /** Records results the gate made final; a group whose every check is recorded ends (unless `closing`). */
  private settle(results: CheckResult[], endFull: boolean, closing = false): void {
    for (const result of results) {
      const key = resultKey(result);
      const entry = this.byId.get(key);
      if (!entry || entry.state.seen.has(key)) continue;
      if (closing) this.startGroup(entry.state);
      this.record(entry.state, result);
      if (endFull && entry.state.seen.size === entry.state.requirements.length) this.finishGroup(entry.state, []);
    }
  }

  private record(state: GroupState, settled: CheckResult): void {
    // A pulled-in check says so in every result, whichever way it ended (reported, held, errored by a stop).
    const of = this.pulledIn.get(settled.id);
    const result = of ? { ...settled, pulledIn: { controlOf: [...of] } } : settled;
    const key = resultKey(result);
    state.seen.add(key);
    state.counts[result.state] += 1;
    this.results.set(key, result);
    this.emitter.emit('onCheckEnd', result);
  }

  private finishGroup(state: GroupState, errors: string[]): void {
    if (state.ended) return;
    this.startGroup(state);
    for (const check of state.requirements) {
      if (!this.has(check.key)) this.settle(this.gate.arrive(unreportedResult(check, state.phase, errors, this.suiteGroups.has(state.group))), false);
    }
    // A check still waiting for a control in another group keeps this group open until it settles.
    if (state.requirements.some((check) => !state.seen.has(check.key))) return;
    state.ended = true;
    this.lastProgressAt = Date.now();
    this.emitter.emit('onGroupEnd', {
      group: state.group,
      phase: state.phase,
      checks: state.requirements.length,
      counts: { ...state.counts },
      durationMs: Date.now() - (state.firstCheckAt ?? state.startedAt),
    });
  }
}
