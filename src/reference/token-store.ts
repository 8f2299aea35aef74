/**
 * In-memory access tokens, keyed by the SHA-256 of the token (a memory dump holds no usable bearer value).
 * Expired tokens are refused on lookup and swept from the front on insert and by the periodic sweep. A
 * hard cap evicts the oldest token first, so a client minting tokens in a loop cannot exhaust memory.
 */
import { sweepExpiredFront } from './expiry.js';
import type { TokenRecord, TokenStore } from './types.js';

export interface MemoryTokenStoreOptions {
  maxTokens?: number;
  sweepPerPut?: number;
}

export function createMemoryTokenStore(options: MemoryTokenStoreOptions = {}): TokenStore {
  const maxTokens = options.maxTokens ?? 100_000;
  const sweepPerPut = options.sweepPerPut ?? 4;
  const tokens = new Map<string, TokenRecord>();

  // Expiries are not strictly in insertion order (a token's life is capped by its credential's), so the
  // front sweep stops at the first live token; the full sweep below catches the rest.
  const sweepFront = (now: number, max: number): number => sweepExpiredFront(tokens, now, max, (record) => record.expiresAt);

  return {
    put(tokenHash, record, now) {
      sweepFront(now, sweepPerPut);
      if (tokens.size >= maxTokens) {
        const oldest = tokens.keys().next();
        if (!oldest.done) tokens.delete(oldest.value);
      }
      tokens.set(tokenHash, { clientId: record.clientId, expiresAt: record.expiresAt });
    },
    get(tokenHash, now) {
      const record = tokens.get(tokenHash);
      if (record === undefined) return undefined;
      if (record.expiresAt <= now) {
        tokens.delete(tokenHash);
        return undefined;
      }
      return record;
    },
    sweep(now) {
      let removed = 0;
      for (const [key, record] of tokens) {
        if (record.expiresAt <= now) {
          tokens.delete(key);
          removed += 1;
        }
      }
      return removed;
    },
    size() {
      return tokens.size;
    },
  };
}
