// Faker-shaped JSON webhook bodies of an exact byte size, generated deterministically from a seed (the
// same seed gives the same bodies in k6 and in Node). ASCII only, so characters = bytes = what k6 signs.

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia', 'Tim', 'Margaret', 'Linus'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Perlman', 'Lee', 'Hamilton', 'Torvalds'];
const COMPANY = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Stark', 'Wayne', 'Tyrell', 'Soylent'];
const EVENT = ['user.created', 'user.deactivated', 'access.requested', 'access.granted', 'access.revoked', 'app.updated', 'role.assigned'];
const ROLE = ['viewer', 'editor', 'admin', 'auditor', 'owner'];
const WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'do', 'eiusmod', 'tempor'];

/**
 * mulberry32: a tiny seeded PRNG, identical in every JS engine.
 * @param {number} seed
 * @returns {() => number} values in [0, 1)
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @template T
 * @param {() => number} rnd
 * @param {T[]} list
 * @returns {T}
 */
function pick(rnd, list) {
  return list[Math.floor(rnd() * list.length)];
}

/**
 * @param {() => number} rnd
 * @param {number} length
 */
function alnum(rnd, length) {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += chars[Math.floor(rnd() * chars.length)];
  return out;
}

/**
 * One body of exactly `bytes` bytes: an event-shaped object, then a `note` of words that fills the rest.
 * Bodies smaller than the event object shrink to `{"note":"…"}` (at least 11 bytes).
 * @param {number} seed
 * @param {number} index which body of the seed's sequence
 * @param {number} bytes exact UTF-8 size wanted
 * @returns {string}
 */
export function makeBody(seed, index, bytes) {
  const minimal = '{"note":""}';
  if (!(bytes >= minimal.length)) throw new Error('A body needs at least ' + minimal.length + ' bytes, asked ' + bytes);
  const rnd = seededRandom((seed * 31 + index * 7919 + 1) >>> 0);
  const first = pick(rnd, FIRST);
  const last = pick(rnd, LAST);
  const company = pick(rnd, COMPANY);
  const event = {
    type: pick(rnd, EVENT),
    id: 'evt_' + alnum(rnd, 20),
    occurredAt: new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 31536000) * 1000).toISOString(),
    actor: { name: first + ' ' + last, email: (first + '.' + last).toLowerCase() + '@' + company.toLowerCase() + '.example' },
    subject: { userId: 'usr_' + alnum(rnd, 12), role: pick(rnd, ROLE), appId: 'app_' + alnum(rnd, 10) },
    tenant: company + ' ' + pick(rnd, ['Inc', 'LLC', 'Group', 'Labs']),
    note: '',
  };
  let base = JSON.stringify(event);
  if (base.length > bytes) base = minimal;
  return base.slice(0, -2) + filler(rnd, bytes - base.length) + '"}';
}

/**
 * Words separated by spaces, cut to exactly `length` characters.
 * @param {() => number} rnd
 * @param {number} length
 */
function filler(rnd, length) {
  /** @type {string[]} */
  const parts = [];
  let size = 0;
  while (size < length) {
    const word = pick(rnd, WORDS);
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(' ').slice(0, length);
}

/**
 * A pool of distinct bodies, all exactly `bytes` long.
 * @param {number} seed
 * @param {number} count
 * @param {number} bytes
 * @returns {string[]}
 */
export function makeBodies(seed, count, bytes) {
  /** @type {string[]} */
  const out = [];
  for (let i = 0; i < count; i++) out.push(makeBody(seed, i, bytes));
  return out;
}
