import type { Runner } from '../reference/types.js';
import type { Tenant } from '../tenant/types.js';
import { contextRunner, contextTextRunner, mapLeaves } from './support/context.js';
import { parsedBody } from './support/events.js';
import { errorResponse, header, isObject, json, listenerOf, routeOf } from './support/http.js';
import { webhookFault } from './support/webhook-faults.js';
import type { FaultTable } from './types.js';

// Per tenant: the events the wrapper already started (the reference's own run of them is skipped) and the
// real runner it starts them with.
const started = new WeakMap<Tenant, { early: Set<string>; inner: Runner }>();

/** The precision of C's `%g`: six significant digits. */
const SIGNIFICANT_DIGITS = 6;

/** A character outside the BMP, raw or as an escaped surrogate pair. */
const OUTSIDE_BMP = /[\u{10000}-\u{10FFFF}]|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/gu;

export const FAULTS: FaultTable = [
  {
    name: 'inactive-answered-200',
    description: 'Answers 200 to a valid request for an unpublished or disabled automation (it does not run it), so the sender believes it ran.',
    breaks: ['RUN-04'],
    ...webhookFault({
      handle: async ({ request, next }) => {
        const response = await next(request);
        return response.status === 422 ? json(200, { accepted: true }) : response;
      },
    }),
  },
  {
    name: 'run-before-validation',
    description: 'Starts the automation as soon as a JSON request arrives, then validates it: refused requests (401, 400, inactive automation) have already run.',
    breaks: ['RUN-05', 'RUN-07', 'RUN-08'],
    ports: (deps, env) => {
      const inner = deps.runner;
      const early = new Set<string>();
      started.set(env.tenant, { early, inner });
      const runner: Runner = {
        run: (run) => (early.has(`${run.listenerId}\n${run.eventId.toLowerCase()}`) ? undefined : inner.run(run)),
        list: (listenerId) => inner.list(listenerId),
      };
      return { runner };
    },
    wrap: (handler, env) => async (request) => {
      const route = routeOf(request);
      const eventId = header(request, 'webhook-event-id');
      const body = parsedBody(request.body);
      const state = started.get(env.tenant);
      if (route.kind === 'webhook' && listenerOf(env.tenant, route.listenerId) && eventId && body && state) {
        const key = `${route.listenerId}\n${eventId.toLowerCase()}`;
        if (!state.early.has(key)) {
          state.early.add(key);
          await state.inner.run({ listenerId: route.listenerId, eventId, context: body.value, at: env.ports().clock.now() });
        }
      }
      return handler(request);
    },
  },
  {
    name: 'run-not-started',
    description: 'Answers 200 but never starts the automation (the run is queued and lost).',
    breaks: ['RUN-01', 'RUN-02', 'RUN-03', 'RUN-06', 'IDEM-06'],
    ports: (deps) => {
      const runner: Runner = { run: () => undefined, list: (listenerId) => deps.runner.list(listenerId) };
      return { runner };
    },
  },
  {
    name: 'runner-context-annotated',
    description: 'Adds its own fields (`_receivedAt`, `_listenerId`) to the JSON body before handing it to the automation as context.',
    breaks: ['RUN-01', 'RUN-02', 'RUN-03'],
    ports: (deps) => {
      const inner = deps.runner;
      const runner: Runner = {
        run: (run) =>
          inner.run(isObject(run.context) ? { ...run, context: { ...run.context, _receivedAt: run.at, _listenerId: run.listenerId }, contextJson: undefined } : run),
        list: (listenerId) => inner.list(listenerId),
      };
      return { runner };
    },
  },
  {
    name: 'runner-context-ascii-only',
    description: 'Passes the context through an ASCII-only channel: non-ASCII text in the body reaches the automation as `?`.',
    breaks: ['RUN-02'],
    ports: contextRunner((context) => mapLeaves(context, { string: (text) => text.replace(/[^\x00-\x7f]/gu, '?') })),
  },
  {
    name: 'runner-context-latin1',
    description: 'Reads the body\'s bytes as Latin-1 before handing it on: raw non-ASCII UTF-8 text reaches the automation as mojibake (`é` as `Ã©`).',
    breaks: ['RUN-X06'],
    ports: contextTextRunner((json) => Buffer.from(json, 'utf8').toString('latin1')),
  },
  {
    name: 'runner-context-nul-stripped',
    description: 'Stores the context where text cannot hold U+0000 (as PostgreSQL text and jsonb cannot) and drops it: `"a\\u0000b"` reaches the automation as `"ab"`.',
    breaks: ['RUN-X08'],
    // Only bodies holding a NUL change; the rest keep their exact text.
    ports: contextRunner((context) => mapLeaves(context, { string: (text) => text.replace(/\u0000/g, '') }), (json) => /\\u0000/i.test(json)),
  },
  /**
   * Ruling 28's MUST side: an engine may hold numbers as doubles, never as less. This one formats them with
   * six significant digits on the way to the automation, so `0.1 + 0.2` and 2^53 lose digits a double keeps.
   */
  {
    name: 'runner-context-six-digits',
    description: 'Writes every number of the context with six significant digits (C\'s `%g`): `3.141592653589793` reaches the automation as `3.14159`, 2^53 as `9.00720e15`.',
    breaks: ['RUN-X07', 'RUN-X01', 'RUN-X02'],
    explains: { 'RUN-02': 'its nested body holds 0.1 + 0.2 (0.30000000000000004), which arrives as 0.3' },
    ports: contextRunner((context) => mapLeaves(context, { number: (value) => Number(value.toPrecision(SIGNIFICANT_DIGITS)) })),
  },
  /**
   * Escapes must decode to the characters they name (ruling 28, MUST): a surrogate pair is one character
   * outside the BMP, which a store limited to three UTF-8 bytes a character cannot hold.
   */
  {
    name: 'runner-context-utf8mb3',
    description: 'Stores the context in a MySQL `utf8` (utf8mb3) column: every character outside the BMP (an emoji, whether sent raw or as the escape `\\ud83d\\ude00`) reaches the automation as `?`.',
    breaks: ['RUN-X05'],
    explains: {
      'RUN-X06': 'its raw text holds an emoji sequence outside the BMP',
      'RUN-02': 'its nested body holds an emoji outside the BMP',
    },
    ports: contextTextRunner((json) => json.replace(OUTSIDE_BMP, '?')),
  },
  {
    name: 'runner-runs-twice',
    description: 'Runs the automation twice per accepted event (a retry after a run that had succeeded).',
    breaks: ['RUN-01', 'RUN-02', 'RUN-03', 'RUN-06', 'IDEM-06'],
    ports: (deps) => {
      const inner = deps.runner;
      const runner: Runner = {
        run: async (run) => {
          await inner.run(run);
          await inner.run({ ...run });
        },
        list: (listenerId) => inner.list(listenerId),
      };
      return { runner };
    },
  },
  {
    name: 'trigger-toggle-ignored',
    description: 'Looks only at whether the automation is published: it runs automations whose trigger toggle is off.',
    breaks: ['RUN-04', 'RUN-05'],
    wrap: (handler, env) => async (request) => {
      const response = await handler(request);
      const route = routeOf(request);
      const known = route.kind === 'webhook' ? listenerOf(env.tenant, route.listenerId) : undefined;
      // 422 comes only after authentication and JSON: the request was valid, the automation disabled.
      if (response.status !== 422 || route.kind !== 'webhook' || !known?.listener.config.published) return response;
      const { eventStore, runner, clock } = env.ports();
      const eventId = header(request, 'webhook-event-id') ?? '';
      const now = clock.now();
      if (!(await eventStore.claim(route.listenerId, eventId.toLowerCase(), now))) {
        return errorResponse(409, 'duplicate_event', 'this event ID was already processed for this listener');
      }
      await runner.run({ listenerId: route.listenerId, eventId, context: parsedBody(request.body)?.value, at: now });
      return json(200, { accepted: true, eventId });
    },
  },
];
