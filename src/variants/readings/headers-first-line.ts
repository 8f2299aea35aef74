import { firstLine, oneHeaderLine } from '../../faults/support/repeated-headers.js';
import { defineVariant } from '../define.js';

export const headersFirstLine = defineVariant(
  { area: 'webhook-common', stacks: 'Go net/http (`Header.Get`), Starlette/FastAPI (`request.headers[…]`)' },
  oneHeaderLine(
    'headers-first-line',
    'Reads the first line of a repeated Webhook-* header, the signed one, and verifies and acts on it alone.',
    firstLine,
    ['WH-X18', 'WH-X19', 'WH-X20'],
  ),
);
