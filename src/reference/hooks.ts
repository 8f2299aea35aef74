/**
 * Test hooks, version 1 (profile/test-hooks.md), under `/__hooks/v1` when enabled: the clock and the log
 * of automation runs. When hooks are off the paths do not exist (404). A production deployment never
 * enables them.
 */
import { timingSafeEqual } from 'node:crypto';
import { JSON_CONTENT_TYPE, errorResponse, json, mediaType, methodNotAllowed, notFound } from './http.js';
import type { AutomationRun, ReferenceDeps, ReferenceRequest, ReferenceResponse } from './types.js';

export const HOOKS_PREFIX = '/__hooks/v1';
export const HOOKS_BODY_LIMIT = 4096;

export interface HooksContext {
  token: string;
  deps: Pick<ReferenceDeps, 'clock' | 'runner'>;
}

function authorised(request: ReferenceRequest, token: string): boolean {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `{"runs": [...]}` with each context as the JSON text the webhook carried, when the runner kept it: that
 * text was parsed as JSON before the run, so it can stand in the answer as it is.
 */
function runsResponse(runs: readonly AutomationRun[]): ReferenceResponse {
  const items = runs.map((run) =>
    `{"eventId":${JSON.stringify(run.eventId)},"context":${run.contextJson ?? JSON.stringify(run.context) ?? 'null'},"at":${JSON.stringify(run.at)}}`);
  return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: `{"runs":[${items.join(',')}]}` };
}

/** `segments` are the path segments after `/__hooks/v1/`. */
export function handleHooks(request: ReferenceRequest, segments: string[], query: URLSearchParams, context: HooksContext): ReferenceResponse {
  const name = segments.join('/');
  if (name !== 'clock' && name !== 'runs') return notFound('no such hook');
  if (!authorised(request, context.token)) {
    return errorResponse(401, 'unauthorized', 'the hooks token is required', { 'www-authenticate': 'Bearer realm="hooks"' });
  }
  const { clock, runner } = context.deps;
  if (name === 'runs') {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    const listenerId = query.get('listenerId');
    if (!listenerId) return errorResponse(400, 'invalid_request', 'listenerId is required');
    return runsResponse(runner.list(listenerId));
  }
  if (request.method === 'GET') return json(200, { now: clock.now() });
  if (request.method !== 'POST') return methodNotAllowed('GET, POST');
  if (request.bodyExceeded) return errorResponse(413, 'payload_too_large', `at most ${HOOKS_BODY_LIMIT} bytes`, { connection: 'close' });
  if (mediaType(request) !== 'application/json' && mediaType(request) !== '') {
    return errorResponse(400, 'invalid_request', 'send {"advanceSeconds": n} as application/json');
  }
  let advance: unknown;
  try {
    advance = (JSON.parse(request.body.toString('utf8')) as { advanceSeconds?: unknown } | null)?.advanceSeconds;
  } catch {
    return errorResponse(400, 'invalid_request', 'the body is not JSON');
  }
  if (typeof advance !== 'number' || !Number.isFinite(advance) || advance <= 0) {
    return errorResponse(400, 'invalid_request', 'advanceSeconds must be a number > 0');
  }
  clock.advance(advance);
  return json(200, { now: clock.now() });
}
