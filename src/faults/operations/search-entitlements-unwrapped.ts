import { defineFault } from '../support/define.js';
import { isObject } from '../support/http.js';
import { withPage } from '../support/operations.js';

export const searchEntitlementsUnwrapped = defineFault({
  name: 'search-entitlements-unwrapped',
  description: 'The entitlement search lists entitlements bare instead of wrapped in appEntitlement (§2.4; the description\'s AppEntitlementView).',
  breaks: ['OPS-16', 'OPS-17'],
  wrap: (handler) => async (request) => {
    const response = await handler(request);
    if (request.method !== 'POST' || request.url.split('?')[0] !== '/api/v1/search/entitlements') return response;
    return withPage(response, (page) => {
      page.list = page.list.map((item) => (isObject(item) && isObject(item.appEntitlement) ? item.appEntitlement : item));
    });
  },
});
