/**
 * The run's operations: the description's list and search operations and the profile's `"operations"`,
 * their path parameters filled from the profile and a search's required body fields from the description
 * or the profile. Neither the description nor the profile is trusted to say what is safe (ruling 35): an
 * operation that may change data stays uncalled whatever they say; one the rules leave in doubt is called
 * only when the user names it (`run --allow-operation`, PlanInput.allow); one whose path parameters or
 * required body fields cannot be filled, or whose filled path changes shape, is left out with the reason.
 * One bad operation never keeps the others from the plan.
 */
import { HarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import { callVerdict, DEFAULT_LIST_PROPERTY, OPT_IN_FLAG, pathParameterNames, type CallVerdict } from './classify.js';
import type { LoadedDescription } from './load.js';
import { operationName } from './operation.js';
import { fillPath } from './path-shape.js';
import type { DescribedOperation, OperationPlan, PlannedOperation, ProfileOperation } from './types.js';

export interface PlanInput {
  description?: Pick<LoadedDescription, 'operations' | 'facts'>;
  profileOperations?: ProfileOperation[];
  profile: Pick<ResolvedProfile, 'apps'>;
  /**
   * Operations the user names to be called although the rules leave them in doubt (ruling 35), each as
   * `METHOD path` or its operation ID: the user's own flag, never the description's or the profile's word.
   */
  allow?: readonly string[];
}

/**
 * Path parameters the profile's app IDs fill, by name: the app with the most entitlements first (every
 * clamp is observable on it), then the others the profile names.
 */
export function profileParameterValue(name: string, profile: Pick<ResolvedProfile, 'apps'>): string | undefined {
  if (name !== 'app_id') return undefined;
  const { entitlements, owners } = profile.apps;
  return entitlements.large?.appId ?? entitlements.exact?.appId ?? owners?.appId ?? entitlements.empty?.appId;
}

/**
 * A POST body's page fields when no description declares them: service.md's `page_size` (MUST with no
 * description, ruling 34); the camelCase one is not asked for.
 */
const SERVICE_BODY_FIELDS = { pageSize: 'page_size', pageToken: 'page_token' } as const;

const sameOperation = (a: { method: string; path: string }, b: { method: string; path: string }): boolean =>
  a.method.toUpperCase() === b.method.toUpperCase() && a.path === b.path;

/** Whether the user's `--allow-operation` names `op`. */
const named = (allow: readonly string[], op: DescribedOperation): boolean =>
  allow.some((name) => name === operationName(op) || (op.operationId !== undefined && name === op.operationId));

export function planOperations(input: PlanInput): OperationPlan {
  const profileOps = input.profileOperations ?? [];
  const described = input.description?.operations ?? [];
  const allow = (input.allow ?? []).map((name) => name.trim().replace(/^([a-z]+) /i, (method: string) => method.toUpperCase()));
  const merged: Array<{ op: DescribedOperation; entry?: ProfileOperation }> = described.map((op) => {
    const entry = profileOps.find((candidate) => sameOperation(candidate, op));
    return entry ? { op: refine(op, entry), entry } : { op };
  });
  for (const entry of profileOps) {
    if (!described.some((op) => sameOperation(entry, op))) merged.push({ op: fromProfile(entry), entry });
  }
  checkAllowed(allow, merged.map(({ op }) => op));
  const called: PlannedOperation[] = [];
  const notCalled: DescribedOperation[] = [];
  for (const { op: planned, entry } of merged) {
    const op = planned.optIn && named(allow, planned) ? optedIn(planned) : planned;
    if (!op.called) {
      notCalled.push(op);
      continue;
    }
    const outcome = fill(op, entry, input.profile);
    if ('reason' in outcome) notCalled.push({ ...uncalled(op), reason: outcome.reason });
    else called.push(outcome);
  }
  return { called, notCalled, ...(input.description ? { description: input.description.facts } : {}) };
}

/** The user named it: called, marked as called because named (reports say so). */
function optedIn(op: DescribedOperation): DescribedOperation {
  const { reason: _reason, optIn: _optIn, ...rest } = op;
  return { ...rest, called: true, optedIn: true };
}

/** A name of `--allow-operation` must name an operation in doubt: a typo, or a changing operation, is the user's to know. */
function checkAllowed(allow: readonly string[], ops: readonly DescribedOperation[]): void {
  for (const name of allow) {
    const matches = ops.filter((op) => named([name], op));
    if (matches.length === 0) {
      throw new HarnessError('USAGE', `${OPT_IN_FLAG} ${JSON.stringify(name)} names no operation of the run (neither "METHOD path" nor an operation ID of the description or the profile's "operations")`, {
        field: OPT_IN_FLAG,
        hint: 'Name it as `list --openapi` prints it, e.g. --allow-operation \'POST /api/v1/legacy/find\', or by its operation ID.',
      });
    }
    if (matches.length > 1) {
      // An operation ID is the description's word, and two operations may share one: name the one meant.
      throw new HarnessError('USAGE', `${OPT_IN_FLAG} ${JSON.stringify(name)} names ${matches.length} operations (${matches.map(operationName).join(', ')})`, {
        field: OPT_IN_FLAG,
        hint: 'Name the one you mean as METHOD and path, e.g. --allow-operation \'POST /api/v1/legacy/find\'.',
      });
    }
    const refused = matches.find((op) => !op.called && !op.optIn);
    if (refused) {
      throw new HarnessError('USAGE', `${OPT_IN_FLAG} ${JSON.stringify(name)} names ${operationName(refused)}, which the harness never calls: ${refused.reason ?? 'it may change data'}`, {
        field: OPT_IN_FLAG,
        hint: 'Only an operation the rules leave in doubt (a paginated POST not named a search or list, with no word that names a change) can be named; operations that change data are never called.',
      });
    }
  }
}

/** Its path as sent and its base body, or why it cannot be called. */
function fill(op: DescribedOperation, entry: ProfileOperation | undefined, profile: Pick<ResolvedProfile, 'apps'>): PlannedOperation | { reason: string } {
  const params: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of op.pathParams) {
    const value = entry?.params?.[name] ?? profileParameterValue(name, profile);
    if (value === undefined || value === '') missing.push(name);
    else params[name] = value;
  }
  if (missing.length > 0) return { reason: unfilledReason(op, missing) };
  const path = fillPath(op.path, params);
  if ('problem' in path) return { reason: `${path.problem}: the harness never sends a request whose path differs from the template's shape (ruling 35)` };
  if (op.paginated !== 'body') return { ...op, params, sentPath: path.path };
  const profileBody = entry?.body ?? {};
  const required = op.requiredBody;
  const unfilled = (required?.missing ?? []).filter((field) => !Object.hasOwn(profileBody, field.split('.')[0] ?? field));
  if (unfilled.length > 0) return { reason: unfilledBodyReason(op, unfilled) };
  const baseBody = { ...(required?.filled ?? {}), ...profileBody };
  return { ...op, params, sentPath: path.path, baseBody };
}

/** The operation without what only a called operation carries. */
function uncalled(op: DescribedOperation): DescribedOperation {
  const { called: _called, bodyFields: _b, listProperty: _l, itemWrapper: _w, responseSchema: _s, optedIn: _o, optIn: _i, ...rest } = op;
  return { ...rest, called: false };
}

function unfilledReason(op: DescribedOperation, missing: string[]): string {
  const names = missing.map((name) => `{${name}}`).join(', ');
  const example = JSON.stringify({ method: op.method, path: op.path, params: Object.fromEntries(missing.map((name) => [name, '…'])) });
  return `path parameter${missing.length > 1 ? 's' : ''} ${names} cannot be filled from the profile (give ${missing.length > 1 ? 'them' : 'it'} in the profile's "operations": ${example})`;
}

function unfilledBodyReason(op: DescribedOperation, missing: string[]): string {
  const top = [...new Set(missing.map((field) => field.split('.')[0] ?? field))];
  const example = JSON.stringify({ method: op.method, path: op.path, body: Object.fromEntries(top.map((name) => [name, '…'])) });
  return `required body field${missing.length > 1 ? 's' : ''} ${missing.map((field) => JSON.stringify(field)).join(', ')} ${missing.length > 1 ? 'have' : 'has'} no example, default, enum or const in the description (give ${missing.length > 1 ? 'them' : 'it'} in the profile's "operations": ${example}); a body without ${missing.length > 1 ? 'them' : 'it'} would be refused for the harness's fault (ruling 35)`;
}

/**
 * A described operation the profile names: the profile may make it a list operation (ruling 34: "or when
 * the profile names it") and give its shapes, never make a changing one callable.
 */
function refine(op: DescribedOperation, entry: ProfileOperation): DescribedOperation {
  const paginated = op.paginated !== false ? op.paginated : (entry.paginated ?? (op.method === 'POST' ? 'body' : 'query'));
  const base = { ...op, paginated, ...(entry.operationId && op.operationId === undefined ? { operationId: entry.operationId } : {}) };
  // A veto of the description's (a method override) stands whatever the profile adds.
  const verdict: CallVerdict = op.vetoed ? { called: false, reason: op.reason ?? 'not called' } : callVerdict(base);
  if (!verdict.called && !verdict.optIn) return { ...uncalled(base), reason: `${verdict.reason}; the profile names it, which changes nothing` };
  const shapes = {
    ...(paginated === 'body' ? { bodyFields: entry.bodyFields ? { ...entry.bodyFields } : (op.bodyFields ?? { ...SERVICE_BODY_FIELDS }) } : {}),
    listProperty: entry.listProperty ?? op.listProperty ?? DEFAULT_LIST_PROPERTY,
    ...((entry.itemWrapper ?? op.itemWrapper) ? { itemWrapper: entry.itemWrapper ?? op.itemWrapper } : {}),
  };
  const { reason: _reason, optIn: _optIn, ...rest } = base;
  return verdict.called ? { ...rest, ...shapes, called: true } : { ...rest, ...shapes, called: false, reason: verdict.reason, optIn: true };
}

/** An operation only the profile names. */
function fromProfile(entry: ProfileOperation): DescribedOperation {
  const method = entry.method.toUpperCase();
  const op: DescribedOperation = {
    method,
    path: entry.path,
    ...(entry.operationId ? { operationId: entry.operationId } : {}),
    tags: [],
    paginated: false,
    called: false,
    pathParams: pathParameterNames(entry.path),
  };
  return refine(op, entry);
}
