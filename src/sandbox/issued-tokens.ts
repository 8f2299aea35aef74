/**
 * The access tokens the sandboxes of this process issued, by the SHA-256 of the token (as the reference
 * keeps them: no usable bearer value in memory), so that a refused bearer token can be told apart:
 * expired, or issued by another tenant (another sandbox of the same process, e.g. one started before).
 * Recorded through the reference's token store port, wrapped from outside (diagnosing-handler.ts).
 * Bounded: the oldest entry goes first past {@link MAX_REMEMBERED}.
 */
export const MAX_REMEMBERED = 4096;

export interface IssuedToken {
  /** The base URL of the tenant that issued it. */
  readonly baseUrl: string;
  /** Unix seconds, on the issuing reference's clock. */
  readonly expiresAt: number;
}

export interface IssuedTokens {
  remember(tokenHash: string, token: IssuedToken): void;
  find(tokenHash: string): IssuedToken | undefined;
}

export function createIssuedTokens(max = MAX_REMEMBERED): IssuedTokens {
  const tokens = new Map<string, IssuedToken>();
  return {
    remember(tokenHash, token) {
      if (tokens.size >= max) {
        const oldest = tokens.keys().next();
        if (!oldest.done) tokens.delete(oldest.value);
      }
      tokens.set(tokenHash, token);
    },
    find: (tokenHash) => tokens.get(tokenHash),
  };
}

/** One per process: every diagnosing sandbox records here, so a token of another tenant is recognised. */
export const PROCESS_ISSUED_TOKENS: IssuedTokens = createIssuedTokens();
