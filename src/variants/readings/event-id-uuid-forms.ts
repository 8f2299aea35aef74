import { readUuidForms } from '../../faults/support/uuid-forms.js';
import { webhookFault } from '../../faults/support/webhook-faults.js';
import { defineVariant } from '../define.js';

export const eventIdUuidForms = defineVariant(
  { area: 'webhook-common', stacks: 'Python `uuid.UUID()` (FastAPI/pydantic `UUID4`), Go github.com/google/uuid `Parse`', touches: ['IDEM-11', 'IDEM-13'] },
  webhookFault({
    name: 'event-id-uuid-forms',
    description: 'Parses Webhook-Event-Id as a UUID in any text form its library reads (32 hex digits, braces, `urn:uuid:`, any case) and keeps one idempotency record per UUID.',
    breaks: ['WH-17', 'WH-30'],
    handle: (call) => readUuidForms(call, (canonical) => canonical),
  }),
);
