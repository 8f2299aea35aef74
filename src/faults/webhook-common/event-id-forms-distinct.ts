import { readUuidForms } from '../support/uuid-forms.js';
import { uuidV4From, webhookFault } from '../support/webhook-faults.js';

/**
 * Ruling 26's MUST side: reading more text forms of a UUID is allowed; keeping one record per text is not,
 * because the same event sent again in another form then runs again.
 */
export const eventIdFormsDistinct = webhookFault({
  name: 'event-id-forms-distinct',
  description: 'Parses Webhook-Event-Id in any UUID text form (32 hex digits, braces, `urn:uuid:`, upper case) but keys the idempotency record on the text as sent: the same event in another form runs again.',
  breaks: ['IDEM-11', 'IDEM-13', 'WH-17', 'WH-30'],
  handle: (call) => readUuidForms(call, (canonical, sent) => (sent === canonical ? canonical : uuidV4From(sent))),
});
