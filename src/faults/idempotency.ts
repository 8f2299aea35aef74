import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryEventStore } from '../reference/event-store.js';
import type { EventStore, Runner } from '../reference/types.js';
import type { Tenant } from '../tenant/types.js';
import { createScope, DAY, parsedBody, RETENTION, scopeOf } from './support/events.js';
import { errorResponse, header, json, listenerOf, routeOf } from './support/http.js';
import { webhookFault } from './support/webhook-faults.js';
import type { FaultTable } from './types.js';

// The real store, per tenant: the wrapper claims in it before the reference authenticates.
const stores = new WeakMap<Tenant, EventStore>();

/** Every claim, the refused duplicates' too, restarts the record's 7 days (a sliding expiry). */
function slidingEventStore(): EventStore {
  const expiries = new Map<string, number>();
  return {
    claim(listenerId, eventId, now) {
      const key = `${listenerId}\n${eventId}`;
      const live = (expiries.get(key) ?? -Infinity) > now;
      expiries.set(key, now + RETENTION);
      return !live;
    },
    sweep(now) {
      let removed = 0;
      for (const [key, expiresAt] of expiries) {
        if (expiresAt <= now) {
          expiries.delete(key);
          removed += 1;
        }
      }
      return removed;
    },
    size: () => expiries.size,
  };
}

/** The request's body, for an event store that keys records on it. */
const bodyScope = createScope();

/** Records per listener the faulty cache holds: fewer than the few hundred events IDEM-X01 sends. */
const CAPACITY = 256;

/** An LRU cache of event IDs per listener: the oldest record goes when a new one needs room. */
function lruEventStore(): EventStore {
  const byListener = new Map<string, Map<string, number>>();
  return {
    claim(listenerId, eventId, now) {
      let records = byListener.get(listenerId);
      if (records === undefined) {
        records = new Map();
        byListener.set(listenerId, records);
      }
      const expiresAt = records.get(eventId);
      if (expiresAt !== undefined && expiresAt > now) return false;
      records.delete(eventId);
      records.set(eventId, now + RETENTION);
      if (records.size > CAPACITY) records.delete(records.keys().next().value as string);
      return true;
    },
    sweep(now) {
      let removed = 0;
      for (const records of byListener.values()) {
        for (const [eventId, expiresAt] of records) {
          if (expiresAt <= now) {
            records.delete(eventId);
            removed += 1;
          }
        }
      }
      return removed;
    },
    size: () => [...byListener.values()].reduce((sum, records) => sum + records.size, 0),
  };
}

/** The round trip to a remote store between the read and the write. */
const GAP_MS = 250;

/** Whether the automation already ran for this request, for a runner that runs before the claim. */
const runScope = createScope();

export const FAULTS: FaultTable = [
  {
    name: 'duplicate-answered-200',
    description: 'Recognises a duplicate event ID and does not run it again, but answers 200 instead of 409.',
    breaks: ['IDEM-01', 'IDEM-05', 'IDEM-07', 'IDEM-09', 'IDEM-10', 'IDEM-11'],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 409 ? json(200, { accepted: true }) : response;
      },
    }),
  },
  {
    name: 'idempotency-before-auth',
    description: 'Checks and records the event ID before authenticating the request: a forged duplicate gets 409, and a forged request burns its event ID.',
    breaks: ['IDEM-03', 'IDEM-04'],
    ports: (deps, env) => {
      stores.set(env.tenant, deps.eventStore);
      // The reference's own check then always passes: the record was made before it ran.
      const eventStore: EventStore = { claim: () => true, sweep: (now) => deps.eventStore.sweep(now), size: () => deps.eventStore.size() };
      return { eventStore };
    },
    wrap: (handler, env) => async (request) => {
      const route = routeOf(request);
      const eventId = header(request, 'webhook-event-id');
      const store = stores.get(env.tenant);
      if (route.kind === 'webhook' && listenerOf(env.tenant, route.listenerId) && eventId && store) {
        if (!(await store.claim(route.listenerId, eventId.toLowerCase(), env.ports().clock.now()))) {
          return errorResponse(409, 'duplicate_event', 'this event ID was already processed for this listener');
        }
      }
      return handler(request);
    },
  },
  {
    name: 'idempotency-duplicate-extends-record',
    description: 'Restarts an event record\'s 7 days on every duplicate (a sliding expiry, like a cache TTL refreshed on read): an ID sent again at day 6 stays refused until day 13.',
    breaks: ['IDEM-X02'],
    ports: () => ({ eventStore: slidingEventStore() }),
  },
  {
    name: 'idempotency-hmac-only',
    description: 'Records event IDs only for HMAC listeners: on a JWT listener a duplicate is accepted and runs again.',
    breaks: ['IDEM-10'],
    ports: (deps, env) => {
      const inner = deps.eventStore;
      const jwtListeners = new Set(Object.values(env.tenant.listeners).filter((l) => l.config.method === 'JWT').map((l) => l.listenerId));
      const eventStore: EventStore = {
        claim: (listenerId, eventId, now) => (jwtListeners.has(listenerId) ? true : inner.claim(listenerId, eventId, now)),
        sweep: (now) => inner.sweep(now),
        size: () => inner.size(),
      };
      return { eventStore };
    },
  },
  {
    name: 'idempotency-key-includes-body',
    description: 'Keys event records by event ID and a hash of the body: the same event ID with another body (and a JWT duplicate whose body differs) is taken for a new event.',
    breaks: ['IDEM-09', 'IDEM-10'],
    ports: (deps) => {
      const inner = deps.eventStore;
      const eventStore: EventStore = {
        claim: (listenerId, eventId, now) => {
          const body = bodyScope.getStore()?.body ?? Buffer.alloc(0);
          return inner.claim(listenerId, `${eventId}#${createHash('sha256').update(body).digest('hex')}`, now);
        },
        sweep: (now) => inner.sweep(now),
        size: () => inner.size(),
      };
      return { eventStore };
    },
    wrap: (handler) => async (request) => {
      const route = routeOf(request);
      return route.kind === 'webhook' ? bodyScope.run(scopeOf(request, route.listenerId), () => handler(request)) : handler(request);
    },
  },
  {
    name: 'idempotency-lru-256',
    description: `Keeps event records in an LRU cache of ${CAPACITY} per listener: after a few hundred other events a duplicate is accepted and runs again.`,
    breaks: ['IDEM-X01'],
    ports: () => ({ eventStore: lruEventStore() }),
  },
  {
    name: 'idempotency-missing',
    description: 'Keeps no event records: every request with a valid signature is accepted and runs, duplicates included.',
    breaks: ['IDEM-01', 'IDEM-05', 'IDEM-06', 'IDEM-07', 'IDEM-09', 'IDEM-10', 'IDEM-11', 'RUN-06'],
    ports: () => {
      const eventStore: EventStore = { claim: () => true, sweep: () => 0, size: () => 0 };
      return { eventStore };
    },
  },
  {
    name: 'idempotency-never-expires',
    description: 'Never forgets an event record: an event ID is refused as a duplicate long after the 7 days.',
    breaks: ['IDEM-08'],
    ports: () => ({ eventStore: createMemoryEventStore({ retentionSeconds: Number.POSITIVE_INFINITY }) }),
  },
  {
    name: 'idempotency-per-tenant',
    description: 'Keys event records by event ID alone, for the whole tenant: the same ID on another listener is taken for a duplicate.',
    breaks: ['IDEM-02'],
    ports: (deps) => {
      const inner = deps.eventStore;
      const eventStore: EventStore = {
        claim: (_listenerId, eventId, now) => inner.claim('*', eventId, now),
        sweep: (now) => inner.sweep(now),
        size: () => inner.size(),
      };
      return { eventStore };
    },
  },
  {
    name: 'idempotency-racy-claim',
    description: `Claims event IDs check-then-set across an await (${GAP_MS} ms to a remote store): duplicates arriving together all see "new", and all run.`,
    breaks: ['IDEM-05', 'IDEM-06'],
    ports: () => {
      const expiries = new Map<string, number>();
      const eventStore: EventStore = {
        async claim(listenerId, eventId, now) {
          const key = `${listenerId}\n${eventId}`;
          const known = expiries.get(key);
          if (known !== undefined && known > now) return false;
          await sleep(GAP_MS);
          expiries.set(key, now + RETENTION);
          return true;
        },
        sweep(now) {
          let removed = 0;
          for (const [key, expiresAt] of expiries) if (expiresAt <= now && expiries.delete(key)) removed += 1;
          return removed;
        },
        size: () => expiries.size,
      };
      return { eventStore };
    },
  },
  {
    name: 'idempotency-ttl-1-day',
    description: 'Keeps event records for 1 day instead of 7: a duplicate 6 days later is accepted and runs again.',
    breaks: ['IDEM-07'],
    ports: () => ({ eventStore: createMemoryEventStore({ retentionSeconds: DAY }) }),
  },
  {
    name: 'run-before-idempotency-check',
    description: 'Starts the automation before it checks the event ID: a duplicate still gets 409, but it has already run again.',
    breaks: ['RUN-06', 'IDEM-06'],
    ports: (deps) => {
      const { eventStore: store, runner: inner, clock } = deps;
      const eventStore: EventStore = {
        claim: async (listenerId, eventId, now) => {
          const current = runScope.getStore();
          const body = current && parsedBody(current.body);
          if (current && body) {
            current.ran = true;
            await inner.run({ listenerId, eventId: current.eventId, context: body.value, at: clock.now() });
          }
          return store.claim(listenerId, eventId, now);
        },
        sweep: (now) => store.sweep(now),
        size: () => store.size(),
      };
      // The reference's run after a successful claim: already done above.
      const runner: Runner = { run: (run) => (runScope.getStore()?.ran ? undefined : inner.run(run)), list: (id) => inner.list(id) };
      return { eventStore, runner };
    },
    wrap: (handler) => async (request) => {
      const route = routeOf(request);
      return route.kind === 'webhook' ? runScope.run(scopeOf(request, route.listenerId), () => handler(request)) : handler(request);
    },
  },
];
