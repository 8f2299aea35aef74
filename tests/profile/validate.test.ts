import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatProfileErrors, profileSchemaPath, validateProfileDocument } from '../../src/profile/index.js';
import { metaSchemaProblems } from '../../src/profile/schema.js';
import { FIXTURE } from './support.js';

describe('validateProfileDocument', () => {
  it('compiles a schema that the JSON Schema 2020-12 meta-schema accepts (run-time compilation no longer checks it)', () => {
    expect(metaSchemaProblems()).toEqual([]);
  });

  it('finds the schema shipped in schemas/', () => {
    expect(profileSchemaPath()).toMatch(/schemas\/target-profile\.schema\.json$/);
  });

  it('accepts the fixture as written (secrets still as env references)', () => {
    expect(validateProfileDocument(JSON.parse(readFileSync(FIXTURE, 'utf8')))).toEqual({ ok: true });
  });

  it('returns every problem with a dotted path', () => {
    const result = validateProfileDocument({
      version: 1,
      baseUrl: 'https://a.example',
      credentials: {},
      webhooks: { jwt: { listenerId: 'x', signingKeys: [] } },
      apps: { entitlements: { large: { appId: 'a', count: -1 } } },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { path: 'credentials.primary', message: 'is required but missing' },
        { path: 'webhooks.jwt.signingKeys', message: 'must have at least 1 item(s)' },
        { path: 'apps.entitlements.large.count', message: 'must be at least 0' },
      ]),
    );
  });

  it('refuses things that are not objects', () => {
    const result = validateProfileDocument([]);
    expect(result).toEqual({ ok: false, errors: [{ path: '(top level)', message: 'must be an object' }] });
  });

  it('formats problems as one message', () => {
    expect(formatProfileErrors([{ path: 'a', message: 'is bad' }], 'p.json')).toBe('The target profile p.json has a problem:\n  - a: is bad');
  });
});
