/**
 * JWKS retrieval for JWT listeners (service.md §5.4). The raw fetcher ({@link createHttpsJwksFetcher}) is
 * the port a fault may replace; {@link createJwksCache} sits on top: documents are kept for a TTL, and an
 * unknown `kid` triggers at most one refetch per interval, and a failed fetch is not retried for a few
 * seconds, so neither a stream of tokens with bogus kids nor one aimed at a listener whose JWKS is down can
 * turn the service into a JWKS request amplifier.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { JWK } from '../crypto/types.js';
import type { Clock, Jwks, JwksFetcher } from './types.js';

export interface HttpsJwksFetcherOptions {
  /** PEM trusted besides the system store (the sandbox's local CA). */
  caPem?: string;
  timeoutMs?: number;
  /** Largest JWKS document read. */
  maxBytes?: number;
  /**
   * Also fetch plain `http://` URLs whose host is a loopback address (a developer's own JWKS on their
   * machine, `serve --jwks-url`); every other URL must still be https.
   */
  loopbackHttp?: boolean;
}

/** 127.0.0.0/8, ::1 or `localhost`: a URL host that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

export function createHttpsJwksFetcher(options: HttpsJwksFetcherOptions = {}): JwksFetcher {
  const timeoutMs = options.timeoutMs ?? 3000;
  const maxBytes = options.maxBytes ?? 256 * 1024;
  // `ca` replaces Node's default trust store, so the public roots are passed along with the local CA.
  // One TLS context for every fetch: built per request, parsing the ~140 public roots cost each JWKS fetch
  // several milliseconds of the event loop (a tenth of a second in an embedded run).
  // `ca` still goes along: the agent pools connections by it, so a fetcher that trusts the local CA never
  // reuses another's connection (nor another its own).
  const ca = options.caPem ? [...rootCertificates, options.caPem] : undefined;
  // Built at the first fetch, not here: parsing the roots is some 30 ms of the event loop, and most runs
  // (one check, an HMAC listener) never fetch a JWKS.
  let secureContext: SecureContext | undefined;
  const contextFor = (trusted: string[]): SecureContext => (secureContext ??= createSecureContext({ ca: trusted }));
  return (url) =>
    new Promise<Jwks>((resolve, reject) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        reject(new Error('JWKS URL is not a URL'));
        return;
      }
      const plain = target.protocol === 'http:' && options.loopbackHttp === true && isLoopbackHost(target.hostname);
      if (target.protocol !== 'https:' && !plain) {
        reject(new Error(options.loopbackHttp ? 'JWKS URL is neither https nor http on a loopback address' : 'JWKS URL is not https'));
        return;
      }
      const answered = (res: IncomingMessage): void => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`JWKS answered ${res.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new Error('JWKS document too large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          try {
            resolve(parseJwks(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      };
      const settings = { method: 'GET', timeout: timeoutMs, headers: { accept: 'application/json' } };
      const req = plain ? httpRequest(target, settings, answered) : request(target, { ...settings, ...(ca ? { ca, secureContext: contextFor(ca) } : {}) }, answered);
      req.on('timeout', () => req.destroy(new Error('JWKS request timed out')));
      req.on('error', reject);
      req.end();
    });
}

export function parseJwks(text: string): Jwks {
  const document: unknown = JSON.parse(text);
  if (typeof document !== 'object' || document === null || !Array.isArray((document as { keys?: unknown }).keys)) {
    throw new Error('JWKS document has no "keys" array');
  }
  const keys = ((document as { keys: unknown[] }).keys).filter(
    (key): key is JWK => typeof key === 'object' && key !== null && !Array.isArray(key),
  );
  return { keys };
}

export interface JwksCache {
  /** The key with that kid at that URL; undefined when the document has none. Throws when unreachable. */
  getKey(url: string, kid: string): Promise<JWK | undefined>;
}

export interface JwksCacheOptions {
  fetcher: JwksFetcher;
  clock: Clock;
  ttlSeconds?: number;
  /** At most one refetch per this many seconds when a kid is unknown. */
  minRefetchSeconds?: number;
  /**
   * After a failed fetch, requests for that URL fail at once for this many seconds instead of fetching
   * again: a flood of webhooks to a listener whose JWKS is down must not become a flood of connection
   * attempts (each up to the fetch timeout) from the service.
   */
  failureBackoffSeconds?: number;
}

/** A fetch failure remembered from a moment ago (no fetch was attempted this time): worth no new log line. */
export class RememberedJwksFailure extends Error {
  override readonly name = 'RememberedJwksFailure';
}

interface CacheEntry {
  jwks: Jwks;
  fetchedAt: number;
}

export function createJwksCache(options: JwksCacheOptions): JwksCache {
  const ttl = options.ttlSeconds ?? 300;
  const minRefetch = options.minRefetchSeconds ?? 1;
  const backoff = options.failureBackoffSeconds ?? 5;
  const entries = new Map<string, CacheEntry>();
  // The last failure per URL (listener URLs are configuration: a bounded set).
  const failures = new Map<string, { at: number; error: unknown }>();
  // Concurrent requests for one URL share one fetch.
  const inFlight = new Map<string, Promise<CacheEntry>>();

  const fetchEntry = (url: string): Promise<CacheEntry> => {
    let pending = inFlight.get(url);
    if (pending === undefined) {
      const failure = failures.get(url);
      if (failure !== undefined && options.clock.now() - failure.at < backoff) {
        const reason = failure.error instanceof Error ? failure.error.message : String(failure.error);
        return Promise.reject(new RememberedJwksFailure(`${reason} (failed ${options.clock.now() - failure.at} s ago; not retried yet)`, { cause: failure.error }));
      }
      pending = options
        .fetcher(url)
        .then(
          (jwks) => {
            const entry = { jwks, fetchedAt: options.clock.now() };
            entries.set(url, entry);
            failures.delete(url);
            return entry;
          },
          (error: unknown) => {
            failures.set(url, { at: options.clock.now(), error });
            throw error;
          },
        )
        .finally(() => inFlight.delete(url));
      inFlight.set(url, pending);
    }
    return pending;
  };

  const find = (entry: CacheEntry, kid: string): JWK | undefined => entry.jwks.keys.find((key) => key.kid === kid);

  return {
    async getKey(url, kid) {
      const now = options.clock.now();
      let entry = entries.get(url);
      if (entry === undefined || now - entry.fetchedAt >= ttl) entry = await fetchEntry(url);
      const key = find(entry, kid);
      if (key !== undefined) return key;
      if (options.clock.now() - entry.fetchedAt < minRefetch) return undefined;
      return find(await fetchEntry(url), kid);
    },
  };
}
