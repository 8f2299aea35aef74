import { defineFault } from '../support/define.js';
import { joinSecret, reissue, splitSecret } from '../support/issue.js';

export const secretVersionV2 = defineFault({
  name: 'secret-version-v2',
  description: 'Issues Client Secrets with the version segment `v2` where the format says `v1`.',
  breaks: ['CRED-07'],
  issue: (tenant) => {
    const parts = splitSecret(tenant.credentials.expired.clientSecret);
    reissue(tenant, 'expired', { clientSecret: joinSecret({ ...parts, version: 'v2' }) });
  },
});
