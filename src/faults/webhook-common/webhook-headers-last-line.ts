import { oneHeaderLine } from '../support/repeated-headers.js';

export const webhookHeadersLastLine = oneHeaderLine(
  'webhook-headers-last-line',
  'Reads the last line of a repeated Webhook-* header: a valid signature sent after another value is accepted.',
  (lines) => lines[lines.length - 1]!,
  ['WH-X21'],
);
