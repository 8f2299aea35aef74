/** The registry: every fault, one file each, grouped by the area of the service it breaks. */
import { clientIdWithPort } from './credentials/client-id-with-port.js';
import { clientIdWithoutUseCase } from './credentials/client-id-without-use-case.js';
import { secretEmptyServiceDomain } from './credentials/secret-empty-service-domain.js';
import { secretJwkMismatchedX } from './credentials/secret-jwk-mismatched-x.js';
import { secretJwkWrongCurve } from './credentials/secret-jwk-wrong-curve.js';
import { secretPaddedBase64 } from './credentials/secret-padded-base64.js';
import { secretVersionV2 } from './credentials/secret-version-v2.js';
import { secretWrongPrefix } from './credentials/secret-wrong-prefix.js';
import type { FaultDefinition } from './types.js';

export const ALL_FAULTS: readonly FaultDefinition[] = [
  // credentials
  clientIdWithoutUseCase,
  clientIdWithPort,
  secretWrongPrefix,
  secretEmptyServiceDomain,
  secretVersionV2,
  secretPaddedBase64,
  secretJwkWrongCurve,
  secretJwkMismatchedX,
];
