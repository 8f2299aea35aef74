/**
 * `run --plan`: what a run would send to each operation, and what it will never call and why, printed
 * before anything is sent (ruling 35: a platform team reads it before the first run against production).
 * The plan is the engine's own (engine/operations.ts, the one a run makes), and every request shown is put
 * through the client's request firewall as the run would: what --plan prints is what the run may send.
 * Nothing is sent to any operation; a description given as a URL is fetched, as a run fetches it.
 */
import { RequestFirewall, type AllowedRequest } from '../../client/firewall.js';
import type { ClientSettings } from '../../client/settings.js';
import { loadOperationPlan } from '../../engine/operations.js';
import { declareScope } from '../../engine/scope.js';
import { isHarnessError } from '../../errors.js';
import { oneLine } from '../../escape.js';
import { operationRef, type DescribedOperation, type OperationPlan, type PlannedOperation } from '../../openapi/index.js';
import type { ResolvedProfile } from '../../profile/types.js';

/** Placeholders of the values the checks choose per request (page sizes 0–4294967306, tokens the target gives). */
const PAGE_SIZE = 'N';
const PAGE_TOKEN = 'TOKEN';

/** One operation as --plan shows it: the requests it would send, or why it is not called. */
export interface PlanLine {
  method: string;
  path: string;
  operationId?: string;
  called: boolean;
  /** Called operations: the request as sent (method, path with query, body), the page size's place, how it came to be called. */
  request?: { method: string; path: string; body?: unknown; pageSize: string; optedIn?: true; bodyFrom?: Record<string, string> };
  reason?: string;
}

/** The run's plan for `profile` (its description loaded as the run loads it), each request checked by the firewall. */
export async function runPlanLines(profile: ResolvedProfile, client: ClientSettings, allow: readonly string[]): Promise<{ plan: OperationPlan | undefined; lines: PlanLine[] }> {
  const loaded = await loadOperationPlan(profile, client, allow, { withSchemas: false });
  // The profile's "scope" leaves its not-implemented operations out, as the run does: listed as never called.
  const plan = declareScope(loaded, profile.scope)?.plan ?? loaded;
  if (plan === undefined) return { plan, lines: [] };
  const firewall = new RequestFirewall(profile.baseUrl, plan.called);
  const order = new Map([...plan.called, ...plan.notCalled].map((op, index) => [`${op.method} ${op.path}`, index]));
  const lines = [...plan.called.map((op) => calledLine(op, firewall)), ...plan.notCalled.map(notCalledLine)];
  return { plan, lines: lines.sort((a, b) => (order.get(`${a.method} ${a.path}`) ?? 0) - (order.get(`${b.method} ${b.path}`) ?? 0)) };
}

function ref(op: DescribedOperation): Pick<PlanLine, 'method' | 'path' | 'operationId'> {
  return operationRef({ method: op.method, path: op.path, operationId: op.operationId });
}

function notCalledLine(op: DescribedOperation): PlanLine {
  return { ...ref(op), called: false, reason: op.reason ?? 'not called' };
}

/** The first page request of a called operation, exactly as the client would build it, or the firewall's refusal. */
function calledLine(op: PlannedOperation, firewall: RequestFirewall): PlanLine {
  const target = { ...operationRef(op), params: op.params };
  try {
    if (op.paginated === 'body') {
      const fields = op.bodyFields ?? { pageSize: 'page_size', pageToken: 'page_token' };
      const body = { ...(op.baseBody ?? {}), [fields.pageSize]: PAGE_SIZE, [fields.pageToken]: PAGE_TOKEN };
      const allowed: AllowedRequest = firewall.operation(target, [], body);
      const also = op.bodyFields?.alsoAccepts ? ` (also "${op.bodyFields.alsoAccepts.pageSize}", SHOULD)` : '';
      return {
        ...ref(op),
        called: true,
        request: {
          method: op.method,
          path: allowed.sentPath,
          body,
          pageSize: `JSON body "${fields.pageSize}"${also}, token "${fields.pageToken}"`,
          ...(op.optedIn ? { optedIn: true as const } : {}),
          ...(op.requiredBody && Object.keys(op.requiredBody.from).length > 0 ? { bodyFrom: { ...op.requiredBody.from } } : {}),
        },
      };
    }
    const allowed = firewall.operation(target, [['page_size', PAGE_SIZE], ['page_token', PAGE_TOKEN]]);
    return { ...ref(op), called: true, request: { method: op.method, path: allowed.sentPath, pageSize: 'query "page_size", token "page_token"', ...(op.optedIn ? { optedIn: true as const } : {}) } };
  } catch (error) {
    if (isHarnessError(error) && error.code === 'REQUEST_REFUSED') return { ...ref(op), called: false, reason: error.message };
    throw error;
  }
}

/** The body as JSON with the placeholders bare (`{"pageSize":N,"pageToken":"TOKEN"}`): N is a number, TOKEN a string. */
function bodyText(body: unknown): string {
  return JSON.stringify(body).replace(new RegExp(`:"${PAGE_SIZE}"(?=[,}])`, 'g'), `:${PAGE_SIZE}`);
}

/** The text --plan prints: where requests go, then every operation in the description's order. */
export function renderRunPlan(profile: ResolvedProfile, plan: OperationPlan | undefined, lines: readonly PlanLine[]): string {
  const t = oneLine;
  const origin = new URL(profile.baseUrl).origin;
  if (plan === undefined) {
    return 'The run has no operations to call one by one: the profile names no OpenAPI description ("openapi", or run --openapi) and no "operations".\nNothing was sent.\n';
  }
  const called = lines.filter((line) => line.called);
  const notCalled = lines.filter((line) => !line.called);
  const facts = plan.description;
  const out = [
    facts
      ? `OpenAPI ${t(facts.openapi)} description ${t(facts.source)}${facts.infoVersion ? ` (info.version ${t(facts.infoVersion)})` : ''}: ${facts.counts.operations} operations`
      : 'The profile\'s "operations" (no description)',
    `${lines.length} operations: ${called.length} called, ${notCalled.length} not called. Nothing was sent to any of them.`,
    `Every request below goes to ${t(origin)} with the run's bearer token (from POST ${t(profile.baseUrl)}/auth/v1/token), and to no other origin.`,
    `In each: ${PAGE_SIZE} is the page size a check sends (none, 0, 9, 12, 25, 100, 101, 4294967306), ${PAGE_TOKEN} a token the target gave (or a forged one, or none); the per-operation checks send each request without a token, with an unknown and with an expired one too.`,
    '',
    `Called (${called.length}):`,
  ];
  for (const line of called) {
    const request = line.request!;
    out.push(`  ${t(line.method).padEnd(6)} ${t(line.path)}${line.operationId ? `  ${t(line.operationId)}` : ''}${request.optedIn ? '  [called because you named it: --allow-operation]' : ''}`);
    out.push(`      sends: ${t(request.method)} ${t(request.path)}`);
    out.push(`      page size in the ${t(request.pageSize)}`);
    if (request.body !== undefined) out.push(`      body: ${t(bodyText(request.body))}`);
    if (request.bodyFrom) out.push(`      required body fields from the description: ${Object.entries(request.bodyFrom).map(([field, from]) => `${t(field)} (${from})`).join(', ')}`);
  }
  out.push('', `Not called (${notCalled.length}):`);
  for (const line of notCalled) {
    out.push(`  ${t(line.method).padEnd(6)} ${t(line.path)}${line.operationId ? `  ${t(line.operationId)}` : ''}`);
    out.push(`      why: ${t(line.reason ?? 'not called')}`);
  }
  return `${out.join('\n')}\n`;
}
