/**
 * Duplicate member names in a compact JWS (RFC 7515 §4, RFC 7519 §4): the verifiers refuse a token whose
 * header or claim set repeats one (the scan itself is shared with the OpenAPI reader: ../json-duplicates.ts).
 */
import { hasDuplicateMember } from '../json-duplicates.js';

/** Whether the decoded header or payload segment of a compact JWS repeats a member name. */
export function jwsHasDuplicateMember(jws: string): boolean {
  const [head, body] = jws.split('.', 2);
  for (const part of [head, body]) {
    if (part !== undefined && hasDuplicateMember(Buffer.from(part, 'base64url').toString('utf8'))) return true;
  }
  return false;
}
