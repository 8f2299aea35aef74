/**
 * `list --openapi FILE`: every operation of a description, classified per ruling 34: where it pages
 * (`query`, `body` or not at all), whether the harness calls it and, when not, why. With `--profile`, the
 * plan a run against that profile would make (path parameters filled from it, its `"operations"` added).
 */
import { loadProfileDescription } from '../../engine/operations.js';
import { isUrlSource, loadDescription, planOperations, type DescribedOperation, type LoadedDescription, type OperationPlan } from '../../openapi/index.js';
import { loadProfile } from '../../profile/index.js';
import { resolve } from 'node:path';
import { HarnessError } from '../../errors.js';
import { oneLine } from '../../escape.js';

export function listUsage(message: string, field: string, hint?: string): HarnessError {
  return new HarnessError('USAGE', message, { field, ...(hint ? { hint } : {}) });
}

/** One operation as `list` prints it (no schema: it is data for the run, not for a reader). */
export interface ListedOperation {
  method: string;
  path: string;
  operationId?: string;
  tags: string[];
  paginated: DescribedOperation['paginated'];
  called: boolean;
  reason?: string;
  /** Not called only because its name leaves it in doubt: `run --allow-operation` calls it (ruling 35). */
  optIn?: true;
  pathParams: string[];
  bodyFields?: DescribedOperation['bodyFields'];
  listProperty?: string;
  itemWrapper?: string;
  params?: Record<string, string>;
  /** With --profile: the path a run sends (parameters filled, each one encoded segment). */
  sentPath?: string;
}

export interface OpenapiListing {
  source: string;
  openapi: string;
  infoVersion?: string;
  counts: { operations: number; paginated: number; query: number; body: number; called: number; notCalled: number };
  /** How `called` was decided: by the description alone, or planned with a profile's values. */
  plannedWith: 'description' | 'profile';
  operations: ListedOperation[];
}

export async function openapiListing(source: string | undefined, profilePath: string | undefined): Promise<OpenapiListing> {
  const profile = profilePath === undefined ? undefined : await loadProfile(profilePath);
  let description: LoadedDescription | undefined;
  if (source !== undefined && isUrlSource(source) && profile === undefined) {
    throw listUsage('--openapi takes a URL only with --profile (the URL is fetched with the profile\'s TLS settings)', '--openapi', 'give a file, or add --profile');
  }
  if (source !== undefined) {
    description = profile === undefined
      ? await loadDescription(source)
      : await loadProfileDescription({ ...profile, openapi: isUrlSource(source) ? source : resolve(source) }, {}, {});
  } else if (profile !== undefined) {
    description = await loadProfileDescription(profile, {}, {});
  }
  if (description === undefined) throw listUsage('list --profile needs a profile with "openapi", or --openapi FILE', '--openapi', 'give --openapi FILE');
  const plan: OperationPlan = profile === undefined
    ? { called: description.operations.filter((op) => op.called).map((op) => ({ ...op, params: {}, sentPath: op.path })), notCalled: description.operations.filter((op) => !op.called) }
    : planOperations({ description, ...(profile.operations ? { profileOperations: profile.operations } : {}), profile });
  // The document's order, whatever the plan's: a reader compares it with the description.
  const order = new Map(description.operations.map((op, index) => [`${op.method} ${op.path}`, index]));
  const all = [...plan.called, ...plan.notCalled].sort((a, b) => (order.get(`${a.method} ${a.path}`) ?? Infinity) - (order.get(`${b.method} ${b.path}`) ?? Infinity));
  const { facts } = description;
  return {
    source: facts.source,
    openapi: facts.openapi,
    ...(facts.infoVersion === undefined ? {} : { infoVersion: facts.infoVersion }),
    counts: { ...facts.counts, called: plan.called.length, notCalled: plan.notCalled.length },
    plannedWith: profile === undefined ? 'description' : 'profile',
    operations: all.map(listed),
  };
}

function listed(op: DescribedOperation & { params?: Record<string, string>; sentPath?: string }): ListedOperation {
  return {
    method: op.method,
    path: op.path,
    ...(op.operationId === undefined ? {} : { operationId: op.operationId }),
    tags: op.tags,
    paginated: op.paginated,
    called: op.called,
    ...(op.reason === undefined ? {} : { reason: op.reason }),
    ...(op.optIn ? { optIn: true as const } : {}),
    pathParams: op.pathParams,
    ...(op.bodyFields ? { bodyFields: op.bodyFields } : {}),
    ...(op.listProperty ? { listProperty: op.listProperty } : {}),
    ...(op.itemWrapper ? { itemWrapper: op.itemWrapper } : {}),
    ...(op.params && Object.keys(op.params).length > 0 ? { params: op.params, ...(op.sentPath ? { sentPath: op.sentPath } : {}) } : {}),
  };
}

/** The heading of a reason that is the operation's own (it names a parameter, a path or a name), else undefined. */
function ownReason(op: ListedOperation): string | undefined {
  const reason = op.reason ?? '';
  if (reason.startsWith('path parameter')) return 'path parameters cannot be filled from the profile';
  if (reason.startsWith('required body field')) return 'required body fields have no value in the description or the profile';
  if (op.optIn) return 'paginated POSTs not named a search or list: in doubt (ruling 35); run --allow-operation calls one';
  if (reason.includes('not named a search or list')) return 'paginated POSTs whose name holds a word that names a change (ruling 35)';
  if (reason.startsWith('its path') || reason.includes('method-override')) return 'paths that resolve elsewhere than they read, or method overrides (ruling 35)';
  return undefined;
}

export function renderOpenapiJson(listing: OpenapiListing): string {
  return `${JSON.stringify(listing, null, 2)}\n`;
}

/** Text: the called operations first, then the others grouped by why they are not called. */
export function renderOpenapiText(listing: OpenapiListing): string {
  const { counts } = listing;
  // Everything but the counts comes from the document: shown with its control characters made visible.
  const t = oneLine;
  const lines = [
    `OpenAPI ${t(listing.openapi)} description ${t(listing.source)}${listing.infoVersion ? ` (info.version ${t(listing.infoVersion)})` : ''}`,
    `${counts.operations} operations: ${counts.paginated} paginated (${counts.query} in the query of a GET, ${counts.body} in the JSON body of a POST); ${counts.called} called, ${counts.notCalled} not called`,
    listing.plannedWith === 'description' ? '(called: the harness calls it when the run\'s profile fills its path parameters; give --profile to see that run\'s plan)' : '(planned with the profile: path parameters filled from it)',
    '',
    `Called (${counts.called}):`,
  ];
  const line = (op: ListedOperation): string => {
    const page = op.paginated === 'query' ? 'query' : op.paginated === 'body' ? `body ${t(op.bodyFields?.pageSize ?? '')}/${t(op.bodyFields?.pageToken ?? '')}` : 'not paginated';
    const extra = [page, op.itemWrapper ? `items in ${t(op.itemWrapper)}` : '', op.params ? Object.entries(op.params).map(([k, v]) => `${t(k)}=${t(v)}`).join(' ') : ''].filter(Boolean).join('; ');
    return `  ${t(op.method).padEnd(6)} ${t(op.path)}${op.operationId ? `  ${t(op.operationId)}` : ''}  (${extra})`;
  };
  for (const op of listing.operations.filter((o) => o.called)) lines.push(line(op));
  const byReason = new Map<string, ListedOperation[]>();
  for (const op of listing.operations.filter((o) => !o.called)) {
    // Reasons that name the operation (an unfilled parameter, a shape, how to opt in) read one per operation;
    // grouped under one heading, each keeps its own.
    const key = ownReason(op) ?? op.reason ?? 'not called';
    byReason.set(key, [...(byReason.get(key) ?? []), op]);
  }
  for (const [reason, ops] of byReason) {
    lines.push('', `Not called (${ops.length}): ${t(reason)}`);
    for (const op of ops) lines.push(ownReason(op) !== undefined ? `${line(op)}\n      ${t(op.reason ?? '')}` : line(op));
  }
  return `${lines.join('\n')}\n`;
}
