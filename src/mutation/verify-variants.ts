/**
 * Self-verification of the legitimate variants (src/variants), the mirror image of the faults': a fault
 * proves a check can fail, a variant proves the checks fail only what the spec forbids. A variant runs the
 * suite groups its declarations touch plus the smoke checks; a stack (its variants combined) runs the whole
 * catalogue. Each is *verified* when no MUST check fails (the default run passes: exit 0) and the checks
 * that fail are exactly the SHOULD checks it warns on (what `--strict` fails), every other check passing.
 * A run records SHOULD failures as failed whatever `--strict` says, so one run shows both.
 */
import { allRequirements, type Requirement, type RequirementId } from '../requirements/catalogue.js';
import { getVariant, listVariants, STACKS, stackVariants, type StackDefinition, type VariantDefinition } from '../variants/index.js';
import { note, type CheckNote, resultsById } from './check-note.js';
import { SMOKE_IDS, type RunPlan } from './verify-plan.js';
import type { RunReport } from './runner/protocol.js';

/** What a variant or a stack is judged against. */
export interface VariantSubject {
  kind: 'variant' | 'stack';
  name: string;
  /** The stacks a variant stands for; a stack's own title. */
  stacks: string;
  warns: RequirementId[];
  touches: RequirementId[];
  /** A stack's variants. */
  variants: string[];
}

export interface VariantOutcome extends VariantSubject {
  groups: string[];
  selected: number;
  /** Declared warnings that failed. */
  warned: RequirementId[];
  /** Declared warnings that did not fail. */
  missing: CheckNote[];
  /** MUST checks that did not pass: the reading fails the default run. */
  mustFailures: CheckNote[];
  /** Every other check that did not pass (a SHOULD not declared, an error, a skip). */
  unexpected: CheckNote[];
  /** No MUST failure and no error: the default run passes (exit 0). */
  passesDefault: boolean;
  verified: boolean;
  error?: string;
  durationMs: number;
}

export function variantSubject(variant: VariantDefinition): VariantSubject {
  return { kind: 'variant', name: variant.name, stacks: variant.stacks, warns: variant.warns, touches: variant.touches, variants: [] };
}

export function stackSubject(stack: StackDefinition): VariantSubject {
  const variants = stackVariants(stack);
  const union = (pick: (variant: VariantDefinition) => RequirementId[]) => [...new Set(variants.flatMap(pick))];
  return { kind: 'stack', name: stack.name, stacks: stack.title, warns: union((v) => v.warns), touches: union((v) => v.touches), variants: stack.variants };
}

/** The subjects of `npm run fault -- <names>`: variants and stacks by name (unknown names are left out). */
export function subjectsNamed(names: readonly string[]): VariantSubject[] {
  const variants = names.map((name) => getVariant(name)).filter((variant) => variant !== undefined).map(variantSubject);
  const stacks = STACKS.filter((stack) => names.includes(stack.name)).map(stackSubject);
  return [...variants, ...stacks];
}

export function allSubjects(): VariantSubject[] {
  return [...listVariants().map(variantSubject), ...STACKS.map(stackSubject)];
}

/** A variant runs its declarations' groups plus the smoke checks; a stack the whole catalogue. */
export function planSubject(subject: VariantSubject, catalogue: readonly Requirement[] = allRequirements()): RunPlan {
  if (subject.kind === 'stack') {
    const groups = [...new Set(catalogue.map((req) => req.group))].sort();
    return { name: subject.name, ids: [], groups, weight: 5 + groups.length * 3 };
  }
  const byId = new Map(catalogue.map((req) => [req.id, req]));
  const groups = new Set([...subject.warns, ...subject.touches].map((id) => byId.get(id)!.group));
  const ids = catalogue.filter((req) => groups.has(req.group)).map((req) => req.id);
  for (const id of SMOKE_IDS) if (!ids.includes(id)) ids.push(id);
  const sorted = [...groups].sort();
  return { name: subject.name, ids, groups: sorted, weight: 5 + sorted.length * 3 };
}

export function judgeVariant(subject: VariantSubject, run: { plan: RunPlan; report?: RunReport; error?: string; durationMs: number }, catalogue: readonly Requirement[] = allRequirements()): VariantOutcome {
  const base = { ...subject, groups: run.plan.groups, durationMs: run.durationMs };
  if (!run.report) {
    const missing = subject.warns.map((id) => ({ id, state: 'errored' as const, message: 'no report' }));
    return { ...base, selected: 0, warned: [], missing, mustFailures: [], unexpected: [], passesDefault: false, verified: false, error: run.error ?? 'no report' };
  }
  const levels = new Map(catalogue.map((req) => [req.id as string, req.level]));
  const declared = new Set<string>(subject.warns);
  const results = resultsById(run.report.results);
  const warned = subject.warns.filter((id) => results.get(id)?.state === 'failed');
  const missing = subject.warns.filter((id) => results.get(id)?.state !== 'failed').map((id) => {
    const result = results.get(id);
    return result ? note(result) : { id, state: 'skipped' as const, message: 'not in the run' };
  });
  const notPassed = run.report.results.filter((result) => result.state !== 'passed' && !declared.has(result.id));
  const mustFailures = notPassed.filter((result) => levels.get(result.id) === 'MUST').map(note);
  const unexpected = notPassed.filter((result) => levels.get(result.id) !== 'MUST').map(note);
  const errors = run.report.harnessErrors.map((error) => error.message);
  const passesDefault = mustFailures.length === 0 && errors.length === 0 && !notPassed.some((result) => result.state === 'errored');
  return {
    ...base,
    selected: run.report.results.length,
    warned,
    missing,
    mustFailures,
    unexpected,
    passesDefault,
    verified: passesDefault && missing.length === 0 && unexpected.length === 0,
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
  };
}

/** What did not match a variant's declaration, one line each (for the test and `npm run fault`). */
export function variantProblems(outcome: VariantOutcome): string[] {
  const lines: string[] = [];
  for (const failure of outcome.mustFailures) lines.push(`MUST ${failure.id} ${failure.state}${failure.message ? `: ${failure.message}` : ''}`);
  for (const missing of outcome.missing) lines.push(`declared warning ${missing.id} did not fail (${missing.state}${missing.message ? `: ${missing.message}` : ''})`);
  for (const other of outcome.unexpected) lines.push(`undeclared ${other.state} ${other.id}${other.message ? `: ${other.message}` : ''}`);
  if (outcome.error) lines.push(outcome.error.split('\n')[0]!);
  return lines;
}
