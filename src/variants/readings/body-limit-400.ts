import { errorResponse } from '../../faults/support/http.js';
import { webhookFault } from '../../faults/support/webhook-faults.js';
import { defineVariant } from '../define.js';

export const bodyLimit400 = defineVariant(
  { area: 'webhook-common', stacks: 'Go net/http `http.MaxBytesReader` (the read error lands in the handler\'s invalid-body 400); the reference\'s 413 is Express body-parser\'s', touches: ['WH-03', 'WH-X01'] },
  webhookFault({
    name: 'body-limit-400',
    description: 'Refuses a body over the limit with 400 (the failed read taken for an invalid body) instead of 413; ruling 13 allows either.',
    breaks: [],
    handle: async ({ request, next }) => {
      const response = await next(request);
      return response.status === 413 ? errorResponse(400, 'invalid_body', 'the body could not be read', { connection: 'close' }) : response;
    },
  }),
);
