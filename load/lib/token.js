// Token endpoint requests (service.md §4.1), secret method. k6 cannot sign EdDSA, so the signed-assertion
// method is left to the built-in driver. Pure.

/**
 * @typedef {object} TokenRequestInput
 * @property {string} baseUrl
 * @property {string} clientId
 * @property {string} clientSecret
 */

/**
 * application/x-www-form-urlencoded, credentials in the body, never in headers (§4.1).
 * @param {Record<string, string>} fields
 * @returns {string}
 */
export function formEncode(fields) {
  return Object.keys(fields)
    .map(function (name) {
      return encodeURIComponent(name) + '=' + encodeURIComponent(fields[name]);
    })
    .join('&');
}

/**
 * @param {TokenRequestInput} input
 * @returns {{url: string, body: string, headers: Record<string, string>}}
 */
export function buildTokenRequest(input) {
  return {
    url: input.baseUrl + '/auth/v1/token',
    body: formEncode({ grant_type: 'client_credentials', client_id: input.clientId, client_secret: input.clientSecret }),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
  };
}

/**
 * Whether a token response body is the §4.1 success shape (ruling 4).
 * @param {string | null | undefined} text
 * @returns {boolean}
 */
export function isTokenResponse(text) {
  if (!text) return false;
  try {
    const value = JSON.parse(text);
    return (
      typeof value.access_token === 'string' &&
      value.access_token.length > 0 &&
      typeof value.token_type === 'string' &&
      value.token_type.toLowerCase() === 'bearer' &&
      Number.isInteger(value.expires_in) &&
      value.expires_in > 0
    );
  } catch (_error) {
    return false;
  }
}
