import { defineFault } from '../support/define.js';
import { joinSecret, reissue, splitSecret } from '../support/issue.js';

export const secretWrongPrefix = defineFault({
  name: 'secret-wrong-prefix',
  description: 'Issues Client Secrets that start with `secret:` instead of `secret-token:`.',
  breaks: ['CRED-05'],
  issue: (tenant) => {
    const parts = splitSecret(tenant.credentials.expired.clientSecret);
    reissue(tenant, 'expired', { clientSecret: joinSecret({ ...parts, prefix: 'secret' }) });
  },
});
