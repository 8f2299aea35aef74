/** `allowedCidrs` on credentials and listeners: schema, resolution, and the address checks spoof with. */
import { beforeAll, describe, expect, it } from 'vitest';
import { addressInside, parseCidrBlock } from '../../src/profile/cidr.js';
import { resolveProfile, validateProfileDocument } from '../../src/profile/index.js';
import { createAddressMatcher } from '../../src/reference/cidr.js';
import { fixtureDoc, harnessError, material, type Material } from './support.js';

let m: Material;
beforeAll(async () => {
  m = await material();
});

describe('allowedCidrs in the profile', () => {
  it('is accepted on a credential, an HMAC listener and a JWT listener, and resolved as given', async () => {
    const doc = fixtureDoc();
    doc.credentials.ipRestricted.allowedCidrs = ['203.0.113.0/24', '2001:db8::/32'];
    doc.webhooks.hmac.allowedCidrs = ['198.51.100.7'];
    doc.webhooks.jwt.allowedCidrs = ['10.0.0.0/8'];
    expect(validateProfileDocument(doc)).toEqual({ ok: true });
    const p = await resolveProfile(doc, { baseDir: '/nonexistent', env: m.env });
    expect(p.credentials.ipRestricted?.allowedCidrs).toEqual(['203.0.113.0/24', '2001:db8::/32']);
    expect(p.webhooks.hmac?.allowedCidrs).toEqual(['198.51.100.7']);
    expect(p.webhooks.jwt?.allowedCidrs).toEqual(['10.0.0.0/8']);
    // Absent stays absent: the checks that need it skip.
    expect(p.credentials.primary.allowedCidrs).toBeUndefined();
    expect('allowedCidrs' in (p.webhooks.hmacSecond ?? {})).toBe(false);
  });

  it('refuses a non-array, an empty string (schema) and a malformed block (resolution), naming the entry', async () => {
    const notArray = fixtureDoc();
    notArray.webhooks.hmac.allowedCidrs = '10.0.0.0/8';
    expect(validateProfileDocument(notArray).ok).toBe(false);
    const empty = fixtureDoc();
    empty.credentials.primary.allowedCidrs = [''];
    expect(validateProfileDocument(empty).ok).toBe(false);
    for (const bad of ['10.0.0.0/33', 'tenant.example.com/8', '10.0.0/8', '2001:db8::/129', '10.0.0.0/8/1']) {
      const doc = fixtureDoc();
      doc.credentials.ipRestricted.allowedCidrs = ['10.0.0.0/8', bad];
      const error = await harnessError(() => resolveProfile(doc, { baseDir: '/nonexistent', env: m.env }));
      expect(error.code).toBe('PROFILE_INVALID');
      expect(error.field).toBe('credentials.ipRestricted.allowedCidrs[1]');
    }
  });
});

describe('addressInside', () => {
  it.each([
    ['203.0.113.0/24', '203.0.113.1'],
    ['203.0.113.77/24', '203.0.113.1'],
    ['198.51.100.7', '198.51.100.7'],
    ['192.0.2.4/31', '192.0.2.4'],
    ['0.0.0.0/0', '0.0.0.1'],
    ['2001:db8::/32', '2001:db8:0:0:0:0:0:1'],
    ['2001:db8:ffff::5/128', '2001:db8:ffff:0:0:0:0:5'],
    ['::ffff:203.0.113.0/120', '0:0:0:0:0:ffff:cb00:7101'],
  ])('%s holds %s', (cidr, inside) => {
    const block = parseCidrBlock(cidr)!;
    expect(addressInside(block)).toBe(inside);
    // Cross-checked with the reference's matcher (node:net BlockList).
    expect(createAddressMatcher([cidr]).allows(inside)).toBe(true);
  });
});
