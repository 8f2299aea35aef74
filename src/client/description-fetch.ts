/**
 * The one HTTP request of the OpenAPI room (`run --openapi URL`, the profile's `"openapi"` URL, the sandbox's
 * served description): a GET through the run's client (its timeout, TLS settings and rate limit), never
 * carrying a token, with the caller's size cap, refused unless it answers 200.
 */
import { HarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import type { ClientSettings } from './settings.js';
import { createTargetClient } from './target-client.js';

export async function fetchDescriptionText(profile: ResolvedProfile, settings: ClientSettings, url: string, maxBytes: number): Promise<string> {
  const client = createTargetClient(profile, { ...settings, max429Retries: 0 });
  try {
    const response = await client.request({
      method: 'GET',
      url,
      headers: { accept: 'application/yaml, application/json;q=0.9, */*;q=0.1' },
      label: 'the OpenAPI description',
      maxResponseBytes: maxBytes,
      retryOn429: false,
    });
    if (response.status !== 200) {
      throw new HarnessError('OPENAPI_UNREADABLE', `it answered HTTP ${response.status}, not 200.`, { hint: 'Check the URL, or give the description as a file.' });
    }
    return response.body.toString('utf8');
  } finally {
    await client.close();
  }
}
