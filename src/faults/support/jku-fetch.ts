/**
 * What a faulty target does with a `jku` header (the SSRF the attack checks look for): fetch the JWKS it
 * names and pick the key it holds under the token's `kid`, or its first. One home for the two faults that
 * follow a `jku` (a client assertion's, a webhook JWT's), so the network doors list one file
 * (tests/architecture/network-doors.test.ts): the checks aim it at the harness's own bait server.
 */
import type { JWK } from '../../crypto/types.js';

/** The bait server answers at once; a faulty target that waited longer would only slow its check. */
const FETCH_TIMEOUT_MS = 2_000;

/** The key a `jku`-following target would verify with; undefined when the fetch or its JSON fails. */
export async function keyFromJku(jku: string, kid: unknown): Promise<JWK | undefined> {
  try {
    const res = await fetch(jku, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    const keys = ((await res.json()) as { keys?: JWK[] }).keys ?? [];
    return keys.find((candidate) => candidate.kid === kid) ?? keys[0];
  } catch {
    return undefined;
  }
}
