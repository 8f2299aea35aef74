import { describe, expect, it } from 'vitest';
import { ClientIdError, parseClientId, type ClientIdReason } from '../../src/crypto/index.js';

describe('parseClientId', () => {
  it('splits a Client ID and derives the endpoints (ruling 2)', () => {
    expect(parseClientId('brave-otter-4821@acme.example.com/conformance')).toEqual({
      randomId: 'brave-otter-4821',
      hostname: 'acme.example.com',
      useCase: 'conformance',
      tokenEndpoint: 'https://acme.example.com/auth/v1/token',
      apiRoot: 'https://acme.example.com/api/v1',
    });
  });

  it('takes the hostname up to the first "/" and keeps the rest as the use case', () => {
    const parsed = parseClientId('x@h.example/a/b');
    expect(parsed.hostname).toBe('h.example');
    expect(parsed.useCase).toBe('a/b');
  });

  const cases: Array<[string, ClientIdReason]> = [
    ['', 'empty'],
    ['abc@host.example/use case', 'whitespace'],
    ['abc@host.example/use\n', 'whitespace'],
    ['abchost.example/use', 'missing-at'],
    ['a@b@host.example/use', 'multiple-at'],
    ['@host.example/use', 'empty-random-id'],
    ['abc@host.example', 'missing-slash'],
    ['abc@/use', 'empty-hostname'],
    ['abc@host.example:8443/use', 'hostname-has-port'],
    ['abc@https:/use', 'hostname-has-port'],
    ['abc@host_name.example/use', 'invalid-hostname'],
    ['abc@-host.example/use', 'invalid-hostname'],
    ['abc@host..example/use', 'invalid-hostname'],
    ['abc@host.example/', 'empty-use-case'],
  ];
  it.each(cases)('refuses %j with reason %s', (id, reason) => {
    let caught: unknown;
    try {
      parseClientId(id, { field: 'credentials.primary.clientId' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ClientIdError);
    const error = caught as ClientIdError;
    expect(error.reason).toBe(reason);
    expect(error.code).toBe('CLIENT_ID_INVALID');
    expect(error.field).toBe('credentials.primary.clientId');
  });
});
