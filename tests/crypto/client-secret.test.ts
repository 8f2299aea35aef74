import { beforeAll, describe, expect, it } from 'vitest';
import {
  ClientSecretError,
  generateClientSecret,
  lintClientSecret,
  parseClientSecret,
  type ClientSecretReason,
} from '../../src/crypto/index.js';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';

function freshJwk(): { kty: string; crv: string; d: string; x: string } {
  return { ...newEd25519Jwk() };
}
const enc = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const secretOf = (jwkPart: string, domain = 'svc.example', version = 'v1'): string => `secret-token:${domain}:${version}:${jwkPart}`;

describe('parseClientSecret', () => {
  let jwk: ReturnType<typeof freshJwk>;
  let valid: string;
  beforeAll(() => {
    jwk = freshJwk();
    valid = secretOf(enc(jwk));
  });

  it('parses a valid secret into its parts and the two JWK halves', () => {
    const parsed = parseClientSecret(valid);
    expect(parsed.domain).toBe('svc.example');
    expect(parsed.version).toBe('v1');
    expect(parsed.privateJwk).toEqual(jwk);
    expect(parsed.publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: jwk.x });
    expect(parsed.encodedJwk).toBe(enc(jwk));
  });

  it('keeps a kid and ignores unknown members', () => {
    const parsed = parseClientSecret(secretOf(enc({ ...jwk, kid: 'k1', extra: true })));
    expect(parsed.publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: 'k1' });
  });

  it('round-trips what generateClientSecret makes', async () => {
    const { secret, publicJwk } = await generateClientSecret('tenant-svc.example');
    expect(parseClientSecret(secret).publicJwk).toEqual(publicJwk);
    expect(secret.startsWith('secret-token:tenant-svc.example:v1:')).toBe(true);
  });

  const broken: Array<[string, ClientSecretReason, () => string]> = [
    ['empty', 'empty', () => ''],
    ['trailing newline', 'whitespace', () => `${valid}\n`],
    ['inner space', 'whitespace', () => valid.replace(':v1:', ': v1:')],
    ['wrong prefix', 'wrong-prefix', () => valid.replace('secret-token:', 'secret_token:')],
    ['no prefix', 'wrong-prefix', () => valid.slice('secret-token:'.length)],
    ['three parts', 'wrong-part-count', () => `secret-token:svc.example:${enc(jwk)}`],
    ['five parts', 'wrong-part-count', () => `secret-token:svc.example:extra:v1:${enc(jwk)}`],
    ['empty domain', 'empty-domain', () => secretOf(enc(jwk), '')],
    ['version v2', 'unsupported-version', () => secretOf(enc(jwk), 'svc.example', 'v2')],
    ['version V1', 'unsupported-version', () => secretOf(enc(jwk), 'svc.example', 'V1')],
    ['empty JWK', 'empty-jwk', () => secretOf('')],
    ['padding', 'base64-padding', () => secretOf(Buffer.from(JSON.stringify(jwk)).toString('base64url') + '==')],
    ['standard base64', 'base64-standard-alphabet', () => secretOf(`+${enc(jwk).slice(1)}`)],
    ['slash', 'base64-standard-alphabet', () => secretOf(`${enc(jwk).slice(0, -1)}/`)],
    ['bad character', 'base64-invalid', () => secretOf(`${enc(jwk).slice(0, -1)}*`)],
    ['impossible length', 'base64-invalid', () => secretOf('abcde')],
    ['not JSON', 'jwk-not-json', () => secretOf(enc('not json at all'))],
    ['JSON array', 'jwk-not-object', () => secretOf(enc([jwk]))],
    ['JSON null', 'jwk-not-object', () => secretOf(enc('null'))],
    ['kty EC', 'jwk-kty', () => secretOf(enc({ ...jwk, kty: 'EC' }))],
    ['crv X25519', 'jwk-crv', () => secretOf(enc({ ...jwk, crv: 'X25519' }))],
    ['no d', 'jwk-missing-d', () => secretOf(enc({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }))],
    ['no x', 'jwk-missing-x', () => secretOf(enc({ kty: 'OKP', crv: 'Ed25519', d: jwk.d }))],
    ['short d', 'jwk-bad-d', () => secretOf(enc({ ...jwk, d: jwk.d.slice(0, 20) }))],
    ['d not a string', 'jwk-bad-d', () => secretOf(enc({ ...jwk, d: 42 }))],
    ['short x', 'jwk-bad-x', () => secretOf(enc({ ...jwk, x: jwk.x.slice(0, 20) }))],
    ['x of another key', 'jwk-x-mismatch', () => secretOf(enc({ ...jwk, x: freshJwk().x }))],
  ];

  it.each(broken)('refuses %s (%s) without echoing the secret', (_name, reason, make) => {
    const secret = make();
    let caught: unknown;
    try {
      parseClientSecret(secret, { field: 'credentials.primary.clientSecret' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ClientSecretError);
    const error = caught as ClientSecretError;
    expect(error.reason).toBe(reason);
    expect(error.code).toBe('CLIENT_SECRET_INVALID');
    expect(error.field).toBe('credentials.primary.clientSecret');
    const text = `${error.message} ${error.hint ?? ''} ${error.format()}`;
    expect(text).not.toContain(jwk.d);
    expect(text).not.toContain(enc(jwk).slice(0, 24));
    if (secret.length > 20) expect(text).not.toContain(secret);
  });
});

describe('lintClientSecret (ruling 1)', () => {
  it('reports "-" or "_" in the JWK part as INFO', () => {
    expect(lintClientSecret('secret-token:svc:v1:ab-cd')).toEqual([
      expect.objectContaining({ level: 'INFO', code: 'CLIENT_SECRET_URL_SAFE_CHARS' }),
    ]);
    expect(lintClientSecret('secret-token:svc:v1:ab_cd')).toHaveLength(1);
    expect(lintClientSecret('secret-token:svc:v1:abcd')).toEqual([]);
  });

  it('looks only at the JWK part (hyphens in the domain are fine)', () => {
    expect(lintClientSecret('secret-token:my-svc.example:v1:abcd')).toEqual([]);
  });

  it('says nothing about strings that are not four parts', () => {
    expect(lintClientSecret('a-b_c')).toEqual([]);
  });

  it('plainBase64Compatible generation yields secrets with no lint, which still parse', async () => {
    const { secret } = await generateClientSecret('svc.example', { plainBase64Compatible: true });
    expect(lintClientSecret(secret)).toEqual([]);
    expect(() => parseClientSecret(secret)).not.toThrow();
  });

  it('messages hold no part of the secret', () => {
    const [lint] = lintClientSecret('secret-token:svc:v1:SECRETPART-xyz');
    expect(lint?.message).not.toContain('SECRETPART');
  });
});
