/**
 * The run's operations: the description's list and search operations and the profile's `"operations"`,
 * their path parameters filled from the profile. An operation the harness may not call (it changes data,
 * ruling 34) stays uncalled whatever the profile says; one whose parameters cannot be filled is skipped
 * with that reason.
 */
import type { ResolvedProfile } from '../profile/types.js';
import { DEFAULT_LIST_PROPERTY, notCalledReason, pathParameterNames } from './classify.js';
import type { LoadedDescription } from './load.js';
import type { DescribedOperation, OperationPlan, PlannedOperation, ProfileOperation } from './types.js';

export interface PlanInput {
  description?: Pick<LoadedDescription, 'operations' | 'facts'>;
  profileOperations?: ProfileOperation[];
  profile: Pick<ResolvedProfile, 'apps'>;
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

export function planOperations(input: PlanInput): OperationPlan {
  const profileOps = input.profileOperations ?? [];
  const described = input.description?.operations ?? [];
  const merged: Array<{ op: DescribedOperation; entry?: ProfileOperation }> = described.map((op) => {
    const entry = profileOps.find((candidate) => sameOperation(candidate, op));
    return entry ? { op: refine(op, entry), entry } : { op };
  });
  for (const entry of profileOps) {
    if (!described.some((op) => sameOperation(entry, op))) merged.push({ op: fromProfile(entry), entry });
  }
  const called: PlannedOperation[] = [];
  const notCalled: DescribedOperation[] = [];
  for (const { op, entry } of merged) {
    if (!op.called) {
      notCalled.push(op);
      continue;
    }
    const params: Record<string, string> = {};
    const missing: string[] = [];
    for (const name of op.pathParams) {
      const value = entry?.params?.[name] ?? profileParameterValue(name, input.profile);
      if (value === undefined || value === '') missing.push(name);
      else params[name] = value;
    }
    if (missing.length > 0) {
      const { called: _called, bodyFields: _b, listProperty: _l, itemWrapper: _w, responseSchema: _s, ...rest } = op;
      notCalled.push({ ...rest, called: false, reason: unfilledReason(op, missing) });
      continue;
    }
    called.push({ ...op, params, ...(op.paginated === 'body' ? { baseBody: entry?.body ?? {} } : {}) });
  }
  return { called, notCalled, ...(input.description ? { description: input.description.facts } : {}) };
}

function unfilledReason(op: DescribedOperation, missing: string[]): string {
  const names = missing.map((name) => `{${name}}`).join(', ');
  const example = JSON.stringify({ method: op.method, path: op.path, params: Object.fromEntries(missing.map((name) => [name, '…'])) });
  return `path parameter${missing.length > 1 ? 's' : ''} ${names} cannot be filled from the profile (give ${missing.length > 1 ? 'them' : 'it'} in the profile's "operations": ${example})`;
}

/**
 * A described operation the profile names: the profile may make it a list operation (ruling 34: "or when
 * the profile names it") and give its shapes, never make a changing one callable.
 */
function refine(op: DescribedOperation, entry: ProfileOperation): DescribedOperation {
  const paginated = op.paginated !== false ? op.paginated : (entry.paginated ?? (op.method === 'POST' ? 'body' : 'query'));
  const base = { ...op, paginated, ...(entry.operationId && op.operationId === undefined ? { operationId: entry.operationId } : {}) };
  const reason = notCalledReason(base);
  if (reason !== undefined) {
    const { called: _c, bodyFields: _b, listProperty: _l, itemWrapper: _w, responseSchema: _s, ...rest } = base;
    return { ...rest, called: false, reason: `${reason}; the profile names it, which changes nothing` };
  }
  return {
    ...base,
    called: true,
    ...(paginated === 'body' ? { bodyFields: entry.bodyFields ? { ...entry.bodyFields } : (op.bodyFields ?? { ...SERVICE_BODY_FIELDS }) } : {}),
    listProperty: entry.listProperty ?? op.listProperty ?? DEFAULT_LIST_PROPERTY,
    ...((entry.itemWrapper ?? op.itemWrapper) ? { itemWrapper: entry.itemWrapper ?? op.itemWrapper } : {}),
  };
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
