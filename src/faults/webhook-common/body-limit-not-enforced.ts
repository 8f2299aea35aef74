import { WEBHOOK_PATH_PREFIX } from '../../reference/webhooks.js';
import { defineFault } from '../support/define.js';

export const bodyLimitNotEnforced = defineFault({
  name: 'body-limit-not-enforced',
  description: 'Reads webhook bodies up to 1 MB and never compares them with the 64 KB limit: a body over the limit is accepted.',
  breaks: ['WH-03'],
  limits: (limitFor) => (method, url) => (url.startsWith(WEBHOOK_PATH_PREFIX) ? 1024 * 1024 : limitFor(method, url)),
});
