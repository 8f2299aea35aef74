/**
 * The shape of most webhook faults: a rule of §5.4 / §7 applied differently. `webhookFault` hands each
 * request to a listener (known or not) to the fault's `handle`; `acceptAs` is how a fault lets through a
 * request the reference would refuse: it checks that the sender authenticated the request as sent (the
 * faulty rule relaxes one thing, not authentication), rewrites the part its rule reads differently, and
 * re-authenticates the rewritten request for the reference, which then does everything else.
 */
import { createHash } from 'node:crypto';
import type { ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import type { FaultDeclaration } from '../types.js';
import { defineFault, type FaultEnv, type FaultSpec } from './define.js';
import { header, listenerOf, routeOf, withHeaders, type KnownListener } from './http.js';
import { authenticated, bearerJwt, hmacMatches, jwtVerdict, partsOf } from './reauthenticate.js';

export type Next = (request: ReferenceRequest) => Promise<ReferenceResponse>;

export interface WebhookCall {
  request: ReferenceRequest;
  listenerId: string;
  /** undefined: a listener the tenant does not have. */
  known: KnownListener | undefined;
  next: Next;
  env: FaultEnv;
}

export type WebhookFaultSpec = Omit<FaultSpec, 'wrap'> & {
  handle: (call: WebhookCall) => Promise<ReferenceResponse>;
};

export function webhookFault(spec: WebhookFaultSpec): FaultDeclaration {
  const { handle, ...rest } = spec;
  return defineFault({
    ...rest,
    wrap: (handler, env) => async (request) => {
      const route = routeOf(request);
      if (route.kind !== 'webhook') return handler(request);
      return handle({ request, listenerId: route.listenerId, known: listenerOf(env.tenant, route.listenerId), next: handler, env });
    },
  });
}

/** Whether the sender authenticated the request exactly as it arrived. */
export async function sentAuthenticated(env: FaultEnv, known: KnownListener, request: ReferenceRequest): Promise<boolean> {
  if (known.method === 'HMAC') {
    const signature = header(request, 'webhook-signature');
    return signature !== undefined && signature !== '' && hmacMatches(known.listener, partsOf(request), signature);
  }
  const jwt = bearerJwt(request);
  return jwt !== undefined && (await jwtVerdict(env, known.listener, request, jwt)).ok;
}

export interface Rewrite {
  timestamp?: string;
  eventId?: string;
  body?: Buffer;
  headers?: Record<string, string | null>;
}

/**
 * The faulty service accepts `call.request` reading it as `rewrite` says. Requests the sender did not
 * authenticate go to the reference unchanged (it refuses them as usual).
 */
export async function acceptAs(call: WebhookCall, rewrite: Rewrite): Promise<ReferenceResponse> {
  const { request, known, env, next } = call;
  if (known === undefined || !(await sentAuthenticated(env, known, request))) return next(request);
  let changed = withHeaders(request, {
    ...(rewrite.timestamp !== undefined ? { 'webhook-timestamp': rewrite.timestamp } : {}),
    ...(rewrite.eventId !== undefined ? { 'webhook-event-id': rewrite.eventId } : {}),
    ...(rewrite.headers ?? {}),
  });
  if (rewrite.body !== undefined) changed = { ...changed, body: rewrite.body, bodyExceeded: false };
  return next(await authenticated(env, known, changed));
}

/** A UUID v4 derived from any text: the faulty service's internal ID for an event ID it should have refused. */
export function uuidV4From(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server's time in whole seconds, as a Webhook-Timestamp value. */
export function nowStamp(env: FaultEnv): string {
  return String(Math.floor(env.ports().clock.now()));
}
