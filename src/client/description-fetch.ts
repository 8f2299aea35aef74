/**
 * The one HTTP request of the OpenAPI room (`run --openapi URL`, the profile's `"openapi"` URL, the sandbox's
 * served description): a GET with the run's timeout, TLS settings and rate limit, never carrying a token,
 * with the caller's size cap, refused unless it answers 200. Its client object has one rule of its own
 * (outbound.ts `descriptionOutbound`): a GET of exactly the URL named, with no credential; nothing else leaves.
 */
import { HarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import { descriptionOutbound } from './outbound.js';
import { profileSecrets } from './profile-secrets.js';
import { createRecorder } from './recorder.js';
import type { ClientSettings } from './settings.js';
import { profileTransport } from './target-client.js';

export async function fetchDescriptionText(profile: ResolvedProfile, settings: ClientSettings, url: string, maxBytes: number): Promise<string> {
  const recorder = createRecorder({ secrets: profileSecrets(profile) });
  const transport = profileTransport(profile, { ...settings, max429Retries: 0 }, recorder, descriptionOutbound(url));
  try {
    const response = await transport.send({
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
    await transport.close();
  }
}
