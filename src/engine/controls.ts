/**
 * Positive controls in a run (ruling 30): a refusal check that passed stands only if its control, the
 * accepted form of the same request (src/requirements/controls.ts), passed in the same run. Otherwise:
 * - the control failed, errored or was itself blocked → the check is `blocked`, with the control's ID and
 *   result: a refusal from a target that refuses everything proves nothing;
 * - the control was skipped (a need the profile lacks, the suite's own reason) → the check is skipped with
 *   that reason: nothing showed the target accepts the request.
 * A refusal check that failed or errored keeps its state: the target accepted what it must refuse, or the
 * harness could not decide, whatever the control did.
 *
 * Checks run concurrently, so a refusal may finish before its control: its result is held until every
 * control it names has one (ControlGate), and the collector records it then. A control the selection
 * left out is pulled into the run (`withControls`), so `--only TOK-09` runs TOK-02 too, and every report
 * counts it and names it as the control of TOK-09 (`pulledInPhrase`): when it fails, it is the root cause
 * of what the selection was about. One named by `--skip` is not, and its refusal checks are skipped saying so.
 */
import { controlsOf } from '../requirements/controls.js';
import { allRequirements, isRequirementId, requirement, type Requirement } from '../requirements/catalogue.js';
import { operationKey } from '../openapi/operation.js';
import { resultKey } from './result-key.js';
import { resolveSelection } from './selection.js';
import type { BlockedBy, CheckResult, PulledInCheck, SelectionInput } from './types.js';

/** The selection plus the controls its refusal checks need (catalogue order), and the ones it pulled in. */
export function withControls(selected: readonly Requirement[], skipped: ReadonlySet<string>, catalogue: readonly Requirement[] = allRequirements()): { requirements: Requirement[]; pulledIn: PulledInCheck[] } {
  const wanted = new Set(selected.map((req) => req.id as string));
  const pulled = new Map<string, string[]>();
  for (const req of selected) {
    for (const control of controlsOf(req.id)) {
      if (skipped.has(control)) continue;
      const of = pulled.get(control);
      if (of) of.push(req.id);
      else if (!wanted.has(control)) pulled.set(control, [req.id]);
    }
  }
  const requirements = catalogue.filter((req) => wanted.has(req.id) || pulled.has(req.id));
  const pulledIn = requirements.filter((req) => pulled.has(req.id)).map((req) => ({ id: req.id as string, controlOf: pulled.get(req.id)! }));
  return { requirements, pulledIn };
}

/** `withControls` for a run's selection: a control `--skip` names stays out. */
export function selectionWithControls(selected: readonly Requirement[], input: SelectionInput): { requirements: Requirement[]; pulledIn: PulledInCheck[] } {
  let skipped = new Set<string>();
  if (input.skip.length > 0) {
    try {
      skipped = new Set(resolveSelection({ only: input.skip, skip: [] }).requirements.map((req) => req.id));
    } catch {
      // A --skip that matches nothing names no control.
    }
  }
  return withControls(selected, skipped);
}

/**
 * The operations a per-operation requirement is checked on (selection.ts operationSelector), with the
 * pulled-in controls kept on the operations of the refusal checks they control: `--only
 * 'OPS-01@GET /api/v1/apps'` pulls in OPS-18 on that operation, which the pattern alone would drop.
 */
export function keepPulledInOperations<Op>(keep: (id: string, operation: Op) => boolean, pulledIn: readonly PulledInCheck[]): (id: string, operation: Op) => boolean {
  const controlOf = new Map(pulledIn.map((check) => [check.id, check.controlOf]));
  return (id, operation) => keep(id, operation) || (controlOf.get(id)?.some((refusal) => keep(refusal, operation)) ?? false);
}

/** "WH-HMAC-08", "WH-HMAC-08 and WH-HMAC-09", "WH-01, WH-03 and 12 more": the checks a pulled-in control is for. */
function idList(ids: readonly string[], max = 6): string {
  if (ids.length <= 1) return ids.join('');
  if (ids.length <= max) return `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
  return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}

/**
 * How every report names a pulled-in check: "pulled in as the positive control of WH-HMAC-08". The one
 * wording, so the console, the files and the annotations agree.
 */
export function pulledInPhrase(pulledIn: { controlOf: readonly string[] }): string {
  return `pulled in as the positive control of ${idList(pulledIn.controlOf)}`;
}

/** The header note of a run that pulled controls into its selection. */
export function controlsNote(pulledIn: readonly PulledInCheck[]): string[] {
  if (pulledIn.length === 0) return [];
  const each = pulledIn.map((check) => `${check.id} as the positive control of ${idList(check.controlOf)}`).join('; ');
  return [`pulled in ${pulledIn.length} check${pulledIn.length === 1 ? '' : 's'} --only/--skip did not name: ${each}. A refusal proves something only if the same request, unspoiled, is accepted (ruling 30); ${pulledIn.length === 1 ? 'it is' : 'they are'} counted and reported like the others`];
}

/** One line of what a result said: its failure, error, block or skip reason. */
export function resultLine(result: CheckResult): string {
  return result.failure?.message ?? result.harnessError?.message ?? result.blockedBy?.message ?? result.reason ?? result.state;
}

/**
 * The refusal check's final result given its controls' results (undefined: not in the run). Only a passed
 * refusal changes.
 */
export function applyControls(result: CheckResult, controls: ReadonlyArray<{ id: string; result: CheckResult | undefined }>): CheckResult {
  if (result.state !== 'passed' || controls.length === 0) return result;
  const ran = controls.filter((c) => c.result !== undefined && c.result.state !== 'skipped');
  const notPassing = ran.find((c) => c.result!.state !== 'passed');
  if (notPassing) {
    const control = notPassing.result!;
    const blockedBy: BlockedBy = { control: notPassing.id, state: control.state, message: resultLine(control) };
    return { ...result, state: 'blocked', blockedBy };
  }
  if (ran.length > 0) return result;
  const why = controls
    .map((c) => (c.result ? `${c.id} was skipped: ${c.result.reason ?? 'no reason'}` : `${c.id} was not run`))
    .join('; ');
  return { ...result, state: 'skipped', reason: `its positive control did not run, so a refusal proves nothing: ${why}` };
}

/**
 * Holds passed refusal results until their controls have results, then settles them. `arrive` takes a
 * result as the collector gets it and returns every result now final (that one, if it need not wait, and
 * any held one it released), in the order they became final.
 *
 * Linear in the results: a held result is indexed by the control keys it still waits for, so a result
 * that becomes final wakes only its own waiters (a run of a thousand operations holds thousands of
 * OPS-01/02/13 results on their OPS-18: rescanning them all on every arrival made the gate quadratic).
 */
export class ControlGate {
  private readonly final = new Map<string, CheckResult>();
  private readonly held = new Map<string, CheckResult>();
  /** By control key: the keys of the held results waiting for it. */
  private readonly waiters = new Map<string, Set<string>>();

  /** `inRun`: the result keys of the run (a control outside it never arrives); live, as operations expand it. */
  constructor(private readonly inRun: Pick<ReadonlySet<string>, 'has'>) {}

  isHeld(key: string): boolean {
    return this.held.has(key);
  }

  arrive(result: CheckResult): CheckResult[] {
    const out: CheckResult[] = [];
    this.admit(result, out);
    return out;
  }

  /** The run is over: every held result settles with what its controls did (a missing one did not run). */
  drain(): CheckResult[] {
    const out: CheckResult[] = [];
    // Held order (arrival order), as before: a held control settles before the refusals that wait on it
    // only when it arrived first; either way each refusal sees what its control ended as.
    for (const [key, result] of [...this.held]) {
      if (!this.held.has(key)) continue;
      this.held.delete(key);
      this.settle(result, out);
    }
    this.waiters.clear();
    return out;
  }

  /** Holds the result on the controls it waits for, or settles it (and whatever waited on it). */
  private admit(result: CheckResult, out: CheckResult[]): void {
    const pending = this.pendingControls(result);
    if (pending.length === 0) {
      this.settle(result, out);
      return;
    }
    const key = resultKey(result);
    this.held.set(key, result);
    for (const control of pending) {
      let set = this.waiters.get(control);
      if (!set) this.waiters.set(control, (set = new Set()));
      set.add(key);
    }
  }

  /** The control keys a passed result still waits for (in the run, without a final result). */
  private pendingControls(result: CheckResult): string[] {
    if (result.state !== 'passed') return [];
    return controlKeysOf(result).filter((key) => this.inRun.has(key) && !this.final.has(key));
  }

  private settle(result: CheckResult, out: CheckResult[]): void {
    // A queue, not recursion: a chain of controls (OPS-01 on OPS-18 on TOK-01) releases in arrival order.
    const queue = [result];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const controls = controlKeysOf(next).map((key) => ({ id: key, result: this.final.get(key) }));
      const settled = applyControls(next, controls);
      const key = resultKey(settled);
      this.final.set(key, settled);
      out.push(settled);
      const waiting = this.waiters.get(key);
      if (!waiting) continue;
      this.waiters.delete(key);
      for (const waiter of waiting) {
        const held = this.held.get(waiter);
        if (held === undefined || this.pendingControls(held).length > 0) continue;
        this.held.delete(waiter);
        queue.push(held);
      }
    }
  }
}

/** Per-operation requirement IDs, looked up once (requirement() copies its catalogue entry). */
const perOperationIds = new Map<string, boolean>();

function isPerOperation(id: string): boolean {
  let known = perOperationIds.get(id);
  if (known === undefined) {
    known = isRequirementId(id) && requirement(id).perOperation !== undefined;
    perOperationIds.set(id, known);
  }
  return known;
}

/**
 * The result keys of a result's controls: a per-operation control (ruling 34) on the same operation
 * (`OPS-01@GET /api/v1/apps` is controlled by `OPS-18@GET /api/v1/apps`), any other by its ID.
 */
export function controlKeysOf(result: Pick<CheckResult, 'id' | 'operation'>): string[] {
  return controlsOf(result.id).map((id) => relatedKey(id, result.operation));
}

/** The key of a related check (control, prerequisite) of a result on `operation`: per operation when it is one. */
export function relatedKey(id: string, operation: CheckResult['operation']): string {
  return operation && isPerOperation(id) ? operationKey(id, operation) : id;
}
