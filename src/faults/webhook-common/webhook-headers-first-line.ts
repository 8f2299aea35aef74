import { oneHeaderLine } from '../support/repeated-headers.js';

export const webhookHeadersFirstLine = oneHeaderLine(
  'webhook-headers-first-line',
  'Reads the first line of a repeated Webhook-* header and ignores the others: a second event ID, signature or timestamp goes unnoticed.',
  (lines) => lines[0]!,
  ['WH-X18', 'WH-X19', 'WH-X20'],
);
