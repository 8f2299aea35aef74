/** The reference's building blocks on their own: stores, clock, CIDRs, page tokens, JWKS cache. */
import { describe, expect, it } from 'vitest';
import { createAddressMatcher, parseCidr } from '../../src/reference/cidr.js';
import { createClock } from '../../src/reference/clock.js';
import { createMemoryEventStore } from '../../src/reference/event-store.js';
import { EVENT_RETENTION_SECONDS } from '../../src/spec-numbers.js';
import { createJwksCache, RememberedJwksFailure } from '../../src/reference/jwks.js';
import { createPageTokenCodec } from '../../src/reference/page-token.js';
import { parsePageSize } from '../../src/reference/api.js';
import { createMemoryRunner } from '../../src/reference/runner.js';
import { createMemoryTokenStore } from '../../src/reference/token-store.js';
import type { Jwks } from '../../src/reference/types.js';

describe('event store', () => {
  it('claims once per (listener, event) within the retention, again after it', () => {
    const store = createMemoryEventStore();
    expect(store.claim('a', 'e1', 1000)).toBe(true);
    expect(store.claim('a', 'e1', 1001)).toBe(false);
    expect(store.claim('b', 'e1', 1001)).toBe(true);
    expect(store.claim('a', 'e1', 1000 + EVENT_RETENTION_SECONDS - 1)).toBe(false);
    expect(store.claim('a', 'e1', 1000 + EVENT_RETENTION_SECONDS)).toBe(true);
  });
  it('sweeps expired records, amortised on claims and in full', () => {
    const store = createMemoryEventStore({ retentionSeconds: 10, sweepPerClaim: 2 });
    for (let i = 0; i < 100; i += 1) store.claim('l', `e${i}`, i * 0.01);
    expect(store.size()).toBe(100);
    store.claim('l', 'late', 20);
    expect(store.size()).toBe(99); // two swept, one added
    expect(store.sweep(20)).toBe(98);
    expect(store.size()).toBe(1);
  });
});

describe('event store, per listener', () => {
  it('keeps listeners apart, even where a joined key would collide', () => {
    const store = createMemoryEventStore();
    expect(store.claim('a\nb', 'c', 1)).toBe(true);
    expect(store.claim('a', 'b\nc', 1)).toBe(true);
    expect(store.claim('a\nb', 'c', 2)).toBe(false);
    expect(store.size()).toBe(2);
  });
  it('sweeps a listener\'s expired front on its claims, the others on the full sweep', () => {
    const store = createMemoryEventStore({ retentionSeconds: 10, sweepPerClaim: 1 });
    store.claim('a', 'a1', 0);
    store.claim('a', 'a2', 1);
    store.claim('b', 'b1', 0);
    // Before the front expires a claim sweeps nothing; after, one record per claim.
    store.claim('a', 'a3', 9);
    expect(store.size()).toBe(4);
    store.claim('a', 'a4', 10.5);
    expect(store.size()).toBe(4); // a1 went, a4 came; b1 (expired) waits for b's claims or the sweep
    store.claim('a', 'a5', 11.5);
    expect(store.size()).toBe(4); // a2 went
    expect(store.sweep(11.5)).toBe(1); // b1
    expect(store.size()).toBe(3);
    // An expired record claimed again is a first claim, and lives on from then.
    expect(store.claim('a', 'a3', 19.5)).toBe(true);
    expect(store.claim('a', 'a3', 25)).toBe(false);
    expect(store.sweep(29)).toBe(1); // a5 (a4 went on the last claim)
    expect(store.claim('a', 'a3', 29.4)).toBe(false);
    expect(store.sweep(1e9)).toBe(1);
    expect(store.size()).toBe(0);
  });
  it('never forgets with an infinite retention', () => {
    const store = createMemoryEventStore({ retentionSeconds: Number.POSITIVE_INFINITY });
    expect(store.claim('a', 'e', 0)).toBe(true);
    expect(store.claim('a', 'e', 1e12)).toBe(false);
    expect(store.sweep(1e15)).toBe(0);
  });
});

describe('token store', () => {
  it('refuses expired tokens, sweeps them, and caps its size', () => {
    const store = createMemoryTokenStore({ maxTokens: 3 });
    store.put('t1', { clientId: 'c', expiresAt: 100 }, 0);
    expect(store.get('t1', 99)?.clientId).toBe('c');
    expect(store.get('t1', 100)).toBeUndefined();
    for (const name of ['a', 'b', 'c', 'd']) store.put(name, { clientId: name, expiresAt: 1000 }, 0);
    expect(store.size()).toBe(3);
    expect(store.get('a', 1)).toBeUndefined();
    expect(store.sweep(2000)).toBe(3);
  });
});

describe('clock', () => {
  it('advances forward only and never goes back with the wall clock', () => {
    let wall = 1000;
    const clock = createClock(() => wall);
    expect(clock.now()).toBe(1000);
    clock.advance(60);
    expect(clock.now()).toBe(1060);
    wall = 900;
    expect(clock.now()).toBe(1060);
    expect(() => clock.advance(0)).toThrow();
    expect(() => clock.advance(-5)).toThrow();
  });
});

describe('CIDR matching', () => {
  it('matches IPv4, IPv4-mapped IPv6 and IPv6, and allows all when empty', () => {
    const m = createAddressMatcher(['203.0.113.0/24', '2001:db8::/32']);
    expect(m.allows('203.0.113.9')).toBe(true);
    expect(m.allows('::ffff:203.0.113.9')).toBe(true);
    expect(m.allows('2001:db8::1')).toBe(true);
    expect(m.allows('127.0.0.1')).toBe(false);
    expect(m.allows('::1')).toBe(false);
    expect(m.allows('garbage')).toBe(false);
    expect(createAddressMatcher([]).allows('anything')).toBe(true);
    expect(() => parseCidr('10.0.0.0/33')).toThrow();
    expect(() => parseCidr('nope/8')).toThrow();
  });
});

describe('page tokens and page_size', () => {
  it('round-trips and refuses tampering and other apps', () => {
    const codec = createPageTokenCodec();
    const token = codec.encode('app1', 25);
    expect(codec.decode('app1', token)).toBe(25);
    expect(codec.decode('app2', token)).toBeUndefined();
    expect(codec.decode('app1', `${token}A`)).toBeUndefined();
    expect(codec.decode('app1', 'MjU')).toBeUndefined();
    expect(createPageTokenCodec().decode('app1', token)).toBeUndefined();
  });
  it('clamps and defaults page_size', () => {
    expect(parsePageSize([])).toBe(25);
    expect(parsePageSize([''])).toBe(25);
    expect(parsePageSize(['0'])).toBe(10);
    expect(parsePageSize(['-3'])).toBe(10);
    expect(parsePageSize(['55'])).toBe(55);
    expect(parsePageSize(['1000'])).toBe(100);
    expect(parsePageSize(['1.5'])).toBeUndefined();
    expect(parsePageSize(['10', '20'])).toBeUndefined();
  });
});

describe('runner', () => {
  it('keeps the newest runs per listener, oldest first', () => {
    const runner = createMemoryRunner({ maxRunsPerListener: 10 });
    for (let i = 0; i < 50; i += 1) runner.run({ listenerId: 'l', eventId: `e${i}`, context: i, at: i });
    const runs = runner.list('l');
    expect(runs.map((r) => r.context)).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
    expect(runner.list('other')).toEqual([]);
  });
  it('wraps its ring many times over, runs with and without their text mixed, and keeps none when asked to', () => {
    const runner = createMemoryRunner({ maxRunsPerListener: 3 });
    for (let i = 0; i < 10; i += 1) {
      runner.run(i % 2 === 0 ? { listenerId: 'l', eventId: `e${i}`, context: { i }, contextJson: `{"i":${i}}`, at: i } : { listenerId: 'l', eventId: `e${i}`, context: [i], at: i });
    }
    runner.run({ listenerId: 'm', eventId: 'm0', context: null, at: 5 });
    const runs = runner.list('l');
    expect(runs.map((run) => [run.eventId, run.at, run.contextJson, run.context])).toEqual([
      ['e7', 7, undefined, [7]],
      ['e8', 8, '{"i":8}', { i: 8 }],
      ['e9', 9, undefined, [9]],
    ]);
    expect(runs.every((run) => run.listenerId === 'l')).toBe(true);
    expect(runner.list('m')).toEqual([{ listenerId: 'm', eventId: 'm0', context: null, at: 5 }]);
    const none = createMemoryRunner({ maxRunsPerListener: 0 });
    none.run({ listenerId: 'l', eventId: 'e', context: 1, at: 1 });
    expect(none.list('l')).toEqual([]);
  });
  it('keeps the body text of a run that has it, and rebuilds the parsed context from it', () => {
    const runner = createMemoryRunner();
    const text = '{"big":9007199254740993,"z":-0}';
    runner.run({ listenerId: 'l', eventId: 'e', context: JSON.parse(text), contextJson: text, at: 1 });
    const [run] = runner.list('l');
    expect(run?.contextJson).toBe(text);
    expect(run?.context).toEqual({ big: 9007199254740992, z: -0 });
  });
});

describe('JWKS cache', () => {
  it('caches for the TTL, refetches an unknown kid at most once per interval, shares concurrent fetches', async () => {
    let now = 0;
    let fetches = 0;
    let keys = [{ kty: 'OKP', kid: 'a' }];
    const cache = createJwksCache({
      clock: { now: () => now, advance: () => {} },
      ttlSeconds: 300,
      minRefetchSeconds: 10,
      fetcher: async (): Promise<Jwks> => {
        fetches += 1;
        return { keys };
      },
    });
    const [k1, k2] = await Promise.all([cache.getKey('u', 'a'), cache.getKey('u', 'a')]);
    expect(k1?.kid).toBe('a');
    expect(k2?.kid).toBe('a');
    expect(fetches).toBe(1);
    expect(await cache.getKey('u', 'b')).toBeUndefined();
    expect(fetches).toBe(1); // within the refetch interval
    keys = [...keys, { kty: 'OKP', kid: 'b' }];
    now = 11;
    expect((await cache.getKey('u', 'b'))?.kid).toBe('b');
    expect(fetches).toBe(2);
    now = 400;
    await cache.getKey('u', 'a');
    expect(fetches).toBe(3);
  });
  it('throws when the JWKS cannot be fetched', async () => {
    const cache = createJwksCache({
      clock: { now: () => 0, advance: () => {} },
      fetcher: async () => {
        throw new Error('ECONNREFUSED');
      },
    });
    await expect(cache.getKey('u', 'a')).rejects.toThrow('ECONNREFUSED');
  });
  it('does not refetch a JWKS that just failed: requests fail at once until the backoff passes', async () => {
    let now = 0;
    let fetches = 0;
    let up = false;
    const cache = createJwksCache({
      clock: { now: () => now, advance: () => {} },
      failureBackoffSeconds: 5,
      fetcher: async (): Promise<Jwks> => {
        fetches += 1;
        if (!up) throw new Error('ECONNREFUSED');
        return { keys: [{ kty: 'OKP', kid: 'a' }] };
      },
    });
    await expect(cache.getKey('u', 'a')).rejects.not.toBeInstanceOf(RememberedJwksFailure);
    for (let i = 0; i < 20; i += 1) await expect(cache.getKey('u', 'a')).rejects.toBeInstanceOf(RememberedJwksFailure);
    await expect(cache.getKey('u', 'a')).rejects.toThrow('ECONNREFUSED');
    expect(fetches).toBe(1);
    // Another URL is not held back by this one's failure.
    await expect(cache.getKey('v', 'a')).rejects.toThrow('ECONNREFUSED');
    expect(fetches).toBe(2);
    up = true;
    now = 4;
    await expect(cache.getKey('u', 'a')).rejects.toThrow('ECONNREFUSED');
    expect(fetches).toBe(2);
    now = 5;
    expect((await cache.getKey('u', 'a'))?.kid).toBe('a');
    expect(fetches).toBe(3);
  });
});
