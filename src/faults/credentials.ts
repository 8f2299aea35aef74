import { encodeJwk, foreignX, joinSecret, reissue, secretJwk, splitClientId, splitSecret } from './support/issue.js';
import type { FaultTable } from './types.js';

export const FAULTS: FaultTable = [
  {
    name: 'client-id-with-port',
    description: 'Puts the port in the Client ID (`<random-id>@<hostname>:<port>/<use-case>`), so the hostname part is not a host name and the derived token endpoint and API root point elsewhere.',
    breaks: ['CRED-02', 'CRED-03', 'CRED-04'],
    issue: (tenant) => {
      const parts = splitClientId(tenant.credentials.expired.clientId);
      const port = new URL(tenant.baseUrl).port || '443';
      reissue(tenant, 'expired', { clientId: `${parts.randomId}@${parts.hostname}:${port}/${parts.useCase}` });
    },
  },
  {
    name: 'client-id-without-use-case',
    description: 'Issues a Client ID of the form `<random-id>@<hostname>`: the `/<use-case>` part is missing.',
    breaks: ['CRED-01', 'CRED-02', 'CRED-03', 'CRED-04'],
    issue: (tenant) => {
      const parts = splitClientId(tenant.credentials.expired.clientId);
      reissue(tenant, 'expired', { clientId: `${parts.randomId}@${parts.hostname}` });
    },
  },
  {
    name: 'secret-empty-service-domain',
    description: 'Issues Client Secrets whose service-domain segment is empty (`secret-token::v1:<jwk>`).',
    breaks: ['CRED-06'],
    issue: (tenant) => {
      const parts = splitSecret(tenant.credentials.expired.clientSecret);
      reissue(tenant, 'expired', { clientSecret: joinSecret({ ...parts, serviceDomain: '' }) });
    },
  },
  {
    name: 'secret-jwk-mismatched-x',
    description: 'Puts another key\'s public `x` next to the private `d` in the Client Secret\'s JWK.',
    breaks: ['CRED-10'],
    issue: (tenant) => {
      const secret = tenant.credentials.expired.clientSecret;
      const jwk = { ...secretJwk(secret), x: foreignX() };
      reissue(tenant, 'expired', { clientSecret: joinSecret({ ...splitSecret(secret), jwkText: encodeJwk(jwk) }) });
    },
  },
  {
    name: 'secret-jwk-wrong-curve',
    description: 'Labels the Ed25519 key inside the Client Secret as `"crv":"X25519"` (same key bytes, wrong curve name).',
    breaks: ['CRED-09'],
    issue: (tenant) => {
      const secret = tenant.credentials.expired.clientSecret;
      const jwk = { ...secretJwk(secret), crv: 'X25519' };
      reissue(tenant, 'expired', { clientSecret: joinSecret({ ...splitSecret(secret), jwkText: encodeJwk(jwk) }) });
    },
  },
  {
    name: 'secret-padded-base64',
    description: 'Encodes the Client Secret\'s JWK in standard base64 with `=` padding instead of base64url without padding.',
    breaks: ['CRED-08'],
    explains: {
      'CRED-09': 'the JWK cannot be read from a segment that is not base64url, so its key type cannot be checked',
      'CRED-10': 'the JWK cannot be read from a segment that is not base64url, so its key pair cannot be checked',
    },
    issue: (tenant) => {
      const secret = tenant.credentials.expired.clientSecret;
      let text = JSON.stringify(secretJwk(secret));
      // Padding appears when the byte count is not a multiple of 3: pad the JSON with a space until it is not.
      while (Buffer.byteLength(text) % 3 === 0) text += ' ';
      reissue(tenant, 'expired', { clientSecret: joinSecret({ ...splitSecret(secret), jwkText: Buffer.from(text, 'utf8').toString('base64') }) });
    },
  },
  {
    name: 'secret-version-v2',
    description: 'Issues Client Secrets with the version segment `v2` where the format says `v1`.',
    breaks: ['CRED-07'],
    issue: (tenant) => {
      const parts = splitSecret(tenant.credentials.expired.clientSecret);
      reissue(tenant, 'expired', { clientSecret: joinSecret({ ...parts, version: 'v2' }) });
    },
  },
  {
    name: 'secret-wrong-prefix',
    description: 'Issues Client Secrets that start with `secret:` instead of `secret-token:`.',
    breaks: ['CRED-05'],
    issue: (tenant) => {
      const parts = splitSecret(tenant.credentials.expired.clientSecret);
      reissue(tenant, 'expired', { clientSecret: joinSecret({ ...parts, prefix: 'secret' }) });
    },
  },
];
