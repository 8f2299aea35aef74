import type { Catalogue } from './types.js';

/**
 * Requirements of the credentials group (service.md §2.1 and §5.2, rulings 1–2). They read the credentials
 * the profile holds (what the service displayed at creation) and never call the target: every Client ID and
 * Client Secret of the profile (primary, ipRestricted, expired) is checked.
 */
export const credentialsRequirements = {
  'CRED-01': {
    section: '2.1',
    ruling: 2,
    level: 'MUST',
    text: 'Client ID has the format `<random-id>@<hostname>/<use-case>`, each part non-empty.',
    group: 'credentials',
    needs: [],
  },
  'CRED-02': {
    section: '5.2',
    ruling: 2,
    level: 'MUST',
    text: 'The hostname (text between `@` and the first `/` of the Client ID) is a DNS host name: no scheme, port, path or user part.',
    group: 'credentials',
    needs: [],
  },
  'CRED-03': {
    section: '5.2',
    ruling: 2,
    level: 'MUST',
    text: 'The derived token endpoint `https://<hostname>/auth/v1/token` is an absolute HTTPS URL on that host with exactly that path.',
    group: 'credentials',
    needs: [],
  },
  'CRED-04': {
    section: '5.2',
    ruling: 2,
    level: 'MUST',
    text: 'The derived API root `https://<hostname>/api/v1` is an absolute HTTPS URL on that host with exactly that path.',
    group: 'credentials',
    needs: [],
  },
  'CRED-05': {
    section: '2.1',
    ruling: 1,
    level: 'MUST',
    text: 'Client Secret = `secret-token:<service-domain>:v1:<base64url JWK>`: four colon-separated parts with the prefix `secret-token`.',
    group: 'credentials',
    needs: [],
  },
  'CRED-06': {
    section: '2.1',
    ruling: 1,
    level: 'MUST',
    text: 'The Client Secret\'s service-domain segment is a non-empty domain name.',
    group: 'credentials',
    needs: [],
  },
  'CRED-07': {
    section: '2.1',
    ruling: 1,
    level: 'MUST',
    text: 'The Client Secret\'s version segment is `v1`.',
    group: 'credentials',
    needs: [],
  },
  'CRED-08': {
    section: '2.1',
    ruling: 1,
    level: 'MUST',
    text: 'The Client Secret\'s last segment is base64url without padding (alphabet A–Z a–z 0–9 - _, no `=`) of a JSON object.',
    group: 'credentials',
    needs: [],
  },
  'CRED-09': {
    section: '2.1',
    ruling: 1,
    level: 'MUST',
    text: 'The Client Secret\'s JWK is an Ed25519 private key: `{"kty":"OKP","crv":"Ed25519","d":…,"x":…}` with 32-byte base64url `d` and `x`.',
    group: 'credentials',
    needs: [],
  },
  'CRED-10': {
    section: '2.1',
    ruling: 1,
    level: 'MUST',
    text: 'The Client Secret\'s JWK `x` is the public key of its private key `d`.',
    group: 'credentials',
    needs: [],
  },
  'CRED-11': {
    section: '2.1',
    ruling: 1,
    level: 'INFO',
    text: 'Lint: a Client Secret whose base64url JWK text holds `-` or `_` breaks official SDKs that decode it with plain base64 decoders.',
    group: 'credentials',
    needs: [],
  },
  'CRED-12': {
    section: '5.2',
    ruling: 2,
    level: 'INFO',
    text: 'The hostname derived from each Client ID, compared with the profile\'s baseUrl host (the run uses baseUrl for every call).',
    group: 'credentials',
    needs: [],
  },
} as const satisfies Catalogue;
