import type { Catalogue } from './types.js';
import { afterValidation, ruling, secondRequest409, spec } from './authority.js';

/**
 * Requirements of the automations group (service.md §4.3, §6 rules 3–4; ruling 19): a 200 means the
 * linked automation ran once with the JSON body as its context; an inactive automation does not run.
 * Runs are only visible through the runs test hook, so most of these need it.
 */
export const automationsRequirements = {
  'RUN-01': {
    section: '6',
    ruling: 19,
    level: 'MUST',
    text: 'A 200 means the automation ran: exactly one run for the event, its context equal to the JSON body.',
    group: 'automations',
    needs: ['webhooks.hmac', 'hooks.runs'],
    authority: ruling(19),
  },
  'RUN-02': {
    section: '4.3',
    ruling: 19,
    level: 'MUST',
    text: '"The whole body is passed to the automation as context data": a nested body with arrays, nulls, numbers, escapes and non-ASCII text arrives unchanged.',
    group: 'automations',
    needs: ['webhooks.hmac', 'hooks.runs'],
    authority: spec('4.3', 'The shape of the JSON object is free; the whole body is passed to the automation as context data.'),
  },
  'RUN-03': {
    section: '6',
    ruling: 19,
    level: 'MUST',
    text: 'A 200 on a JWT listener means its automation ran: exactly one run, its context equal to the JSON body.',
    group: 'automations',
    needs: ['webhooks.jwt', 'hooks.runs'],
    authority: ruling(19),
  },
  'RUN-04': {
    section: '6',
    ruling: 19,
    level: 'MUST',
    text: 'An automation that is not published or whose trigger is disabled does not run: a valid request to its listener does not get 200.',
    group: 'automations',
    needs: ['webhooks.inactive'],
    authority: ruling(19),
  },
  'RUN-05': {
    section: '6',
    ruling: 19,
    level: 'MUST',
    text: 'An automation that is not published or whose trigger is disabled does not run: no run appears for a valid request to its listener.',
    group: 'automations',
    needs: ['webhooks.inactive', 'hooks.runs'],
    authority: spec('3', 'An automation does not run unless it is published and its trigger is enabled.'),
  },
  'RUN-06': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'A duplicate answered 409 does not run the automation again: still exactly one run for the event ID.',
    group: 'automations',
    needs: ['webhooks.hmac', 'hooks.runs'],
    authority: secondRequest409,
  },
  'RUN-07': {
    section: '6',
    ruling: 17,
    level: 'MUST',
    text: 'The automation runs only after successful validation: a request refused with 401 (bad signature) starts no run.',
    group: 'automations',
    needs: ['webhooks.hmac', 'hooks.runs'],
    authority: afterValidation,
  },
  'RUN-08': {
    section: '6',
    level: 'MUST',
    text: 'The automation runs only after successful validation: a request refused with 400 (timestamp out of range) starts no run.',
    group: 'automations',
    needs: ['webhooks.hmac', 'hooks.runs'],
    authority: afterValidation,
  },
} as const satisfies Catalogue;
