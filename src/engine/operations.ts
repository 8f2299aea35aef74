/**
 * The run's operations (ruling 34): the description the profile names (`"openapi"`, or `run --openapi`,
 * which the CLI writes into the profile), loaded once in the main thread (a URL through the client with the
 * run's timeout and TLS settings), classified and planned with the profile's app IDs and `"operations"`.
 * The plan goes whole to the suite thread as `RunContext.operations`.
 */
import { fetchDescriptionText } from '../client/index.js';
import type { ClientSettings } from '../client/settings.js';
import { loadDescription, MAX_DESCRIPTION_FILE_BYTES, operationRef, planOperations, type LoadedDescription, type OperationPlan } from '../openapi/index.js';
import { HarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import type { RunOperations } from './types.js';

/** The description a profile names, loaded (files are already absolute in a resolved profile). */
export async function loadProfileDescription(profile: ResolvedProfile, client: ClientSettings, options: { withSchemas?: boolean } = {}): Promise<LoadedDescription | undefined> {
  if (profile.openapi === undefined) return undefined;
  return loadDescription(profile.openapi, {
    fetchText: (url) => fetchDescriptionText(profile, client, url, MAX_DESCRIPTION_FILE_BYTES),
    ...(options.withSchemas === undefined ? {} : { withSchemas: options.withSchemas }),
  });
}

/**
 * The run's plan, made once (the suites iterate it, the client's firewall lets a POST go only to its reads),
 * or undefined when the profile names neither a description nor operations. `allow`: the user's own
 * `--allow-operation` names (ruling 35), never the profile's or the description's.
 */
export async function loadOperationPlan(profile: ResolvedProfile, client: ClientSettings, allow: readonly string[] = [], options: { withSchemas?: boolean } = {}): Promise<OperationPlan | undefined> {
  const description = await loadProfileDescription(profile, client, options);
  if (description === undefined && (profile.operations ?? []).length === 0) {
    if (allow.length > 0) throw new HarnessError('USAGE', `--allow-operation names operations, but the run has none: the profile names no OpenAPI description ("openapi", or run --openapi) and no "operations"`, { field: '--allow-operation' });
    return undefined;
  }
  return planOperations({
    ...(description ? { description } : {}),
    ...(profile.operations ? { profileOperations: profile.operations } : {}),
    profile,
    allow,
  });
}

/** The plan as the header and the reports carry it: no schemas, no parameter values, every reason. */
export function runOperations(plan: OperationPlan | undefined): RunOperations | undefined {
  if (plan === undefined) return undefined;
  const facts = plan.description;
  return {
    ...(facts
      ? { description: { source: facts.source, openapi: facts.openapi, ...(facts.sha256 ? { sha256: facts.sha256 } : {}), ...(facts.infoVersion ? { infoVersion: facts.infoVersion } : {}), operations: facts.counts.operations, paginated: facts.counts.paginated } }
      : {}),
    called: plan.called.map((op) => ({ ...operationRef(op), paginated: op.paginated, ...(op.optedIn ? { optedIn: true as const } : {}) })),
    notCalled: plan.notCalled.map((op) => ({ ...operationRef({ method: op.method, path: op.path, operationId: op.operationId }), reason: op.reason ?? 'not called' })),
  };
}

/** The header's line about the run's operations: where they come from, how many are called and not. */
export function operationsNote(plan: OperationPlan | undefined): string[] {
  if (plan === undefined) return [];
  const facts = plan.description;
  const from = facts ? `OpenAPI ${facts.openapi} description ${facts.source} (${facts.counts.operations} operations, ${facts.counts.paginated} paginated)` : 'the profile\'s "operations"';
  const named = plan.called.filter((op) => op.optedIn).map((op) => `${op.method} ${op.path}`);
  return [
    `operations from ${from}: ${plan.called.length} checked one by one, ${plan.notCalled.length} not called (run --plan says why for each and what each call sends; operations that create, change or delete are never called)`,
    ...(named.length > 0 ? [`called because you named ${named.length === 1 ? 'it' : 'them'} (--allow-operation), not because ruling 35 says ${named.length === 1 ? 'it reads' : 'they read'}: ${named.join(', ')}`] : []),
  ];
}
