import { defineFault } from '../support/define.js';
import { reissue, splitClientId } from '../support/issue.js';

export const clientIdWithoutUseCase = defineFault({
  name: 'client-id-without-use-case',
  description: 'Issues a Client ID of the form `<random-id>@<hostname>`: the `/<use-case>` part is missing.',
  breaks: ['CRED-01', 'CRED-02', 'CRED-03', 'CRED-04'],
  issue: (tenant) => {
    const parts = splitClientId(tenant.credentials.expired.clientId);
    reissue(tenant, 'expired', { clientId: `${parts.randomId}@${parts.hostname}` });
  },
});
