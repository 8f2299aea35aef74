import { defineFault } from '../support/define.js';
import { reissue, splitClientId } from '../support/issue.js';

export const clientIdWithPort = defineFault({
  name: 'client-id-with-port',
  description: 'Puts the port in the Client ID (`<random-id>@<hostname>:<port>/<use-case>`), so the hostname part is not a host name and the derived token endpoint and API root point elsewhere.',
  breaks: ['CRED-02', 'CRED-03', 'CRED-04'],
  issue: (tenant) => {
    const parts = splitClientId(tenant.credentials.expired.clientId);
    const port = new URL(tenant.baseUrl).port || '443';
    reissue(tenant, 'expired', { clientId: `${parts.randomId}@${parts.hostname}:${port}/${parts.useCase}` });
  },
});
