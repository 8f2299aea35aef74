/**
 * The registry: every fault, one file each, in folders by the area of the service it breaks. A fault is
 * registered by the `export *` line in its folder's index.ts; a new folder is one import and one spread here.
 */
import type { FaultDefinition } from './types.js';
import * as api from './api/index.js';
import * as credentials from './credentials/index.js';
import * as hmac from './hmac/index.js';
import * as idempotency from './idempotency/index.js';
import * as jwt from './jwt/index.js';
import * as owners from './owners/index.js';
import * as pagination from './pagination/index.js';
import * as runs from './runs/index.js';
import * as tokens from './tokens/index.js';
import * as webhooks from './webhooks/index.js';

function definitions(area: Record<string, FaultDefinition>): FaultDefinition[] {
  return Object.values(area);
}

export const ALL_FAULTS: readonly FaultDefinition[] = [
  ...definitions(api),
  ...definitions(credentials),
  ...definitions(hmac),
  ...definitions(idempotency),
  ...definitions(jwt),
  ...definitions(owners),
  ...definitions(pagination),
  ...definitions(runs),
  ...definitions(tokens),
  ...definitions(webhooks),
];
