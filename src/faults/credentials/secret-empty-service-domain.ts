import { defineFault } from '../support/define.js';
import { joinSecret, reissue, splitSecret } from '../support/issue.js';

export const secretEmptyServiceDomain = defineFault({
  name: 'secret-empty-service-domain',
  description: 'Issues Client Secrets whose service-domain segment is empty (`secret-token::v1:<jwk>`).',
  breaks: ['CRED-06'],
  issue: (tenant) => {
    const parts = splitSecret(tenant.credentials.expired.clientSecret);
    reissue(tenant, 'expired', { clientSecret: joinSecret({ ...parts, serviceDomain: '' }) });
  },
});
