/**
 * Reads a compact JWT without verifying it: suites and reports use it to show what was sent, tests to
 * check claims. Tolerant: any part that does not decode comes back undefined.
 */
import { fromBase64UrlStrict } from './encoding.js';

export interface DecodedJwt {
  header?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  /** The third part as text ('' for an unsigned token). */
  signature: string;
}

function decodeJson(part: string | undefined): Record<string, unknown> | undefined {
  if (part === undefined) return undefined;
  const bytes = fromBase64UrlStrict(part);
  if (bytes === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function decodeJwtParts(jwt: string): DecodedJwt {
  const [header, payload, signature] = jwt.split('.');
  return { header: decodeJson(header), payload: decodeJson(payload), signature: signature ?? '' };
}
