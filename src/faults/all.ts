/** The registry: every fault, one file each, in folders by the area of the service it breaks. Keep it grouped by folder. */
import { api401WithoutChallenge } from './api/api-401-without-challenge.js';
import { api403ForInvalidToken } from './api/api-403-for-invalid-token.js';
import { apiAnyBearerAccepted } from './api/api-any-bearer-accepted.js';
import { apiAssertionTokensRefused } from './api/api-assertion-tokens-refused.js';
import { apiAuthOptionalEntitlements } from './api/api-auth-optional-entitlements.js';
import { apiAuthOptionalOwners } from './api/api-auth-optional-owners.js';
import { apiBasicSchemeAccepted } from './api/api-basic-scheme-accepted.js';
import { apiEmptyBearerAccepted } from './api/api-empty-bearer-accepted.js';
import { apiEntitlementsForbidden } from './api/api-entitlements-forbidden.js';
import { apiTokenActivationLag } from './api/api-token-activation-lag.js';
import { apiTokenExpiryIgnored } from './api/api-token-expiry-ignored.js';
import { apiTokenPrefixMatch } from './api/api-token-prefix-match.js';
import { clientIdWithPort } from './credentials/client-id-with-port.js';
import { clientIdWithoutUseCase } from './credentials/client-id-without-use-case.js';
import { secretEmptyServiceDomain } from './credentials/secret-empty-service-domain.js';
import { secretJwkMismatchedX } from './credentials/secret-jwk-mismatched-x.js';
import { secretJwkWrongCurve } from './credentials/secret-jwk-wrong-curve.js';
import { secretPaddedBase64 } from './credentials/secret-padded-base64.js';
import { secretVersionV2 } from './credentials/secret-version-v2.js';
import { secretWrongPrefix } from './credentials/secret-wrong-prefix.js';
import { hmacAnyPartOrder } from './hmac/hmac-any-part-order.js';
import { hmacBodyOptionalInInput } from './hmac/hmac-body-optional-in-input.js';
import { hmacDecodedKey } from './hmac/hmac-decoded-key.js';
import { hmacEitherKey } from './hmac/hmac-either-key.js';
import { hmacHexAccepted } from './hmac/hmac-hex-accepted.js';
import { hmacHexDigest } from './hmac/hmac-hex-digest.js';
import { hmacOverReserialisedBody } from './hmac/hmac-over-reserialised-body.js';
import { hmacPaddedBase64Only } from './hmac/hmac-padded-base64-only.js';
import { hmacPrefixCompare } from './hmac/hmac-prefix-compare.js';
import { hmacPresenceOnly } from './hmac/hmac-presence-only.js';
import { hmacSeparatorsOptional } from './hmac/hmac-separators-optional.js';
import { hmacSignatureOptional } from './hmac/hmac-signature-optional.js';
import { hmacStandardBase64Accepted } from './hmac/hmac-standard-base64-accepted.js';
import { hmacTimestampUnbound } from './hmac/hmac-timestamp-unbound.js';
import { webhookAuthFailure400 } from './hmac/webhook-auth-failure-400.js';
import { duplicateAnswered200 } from './idempotency/duplicate-answered-200.js';
import { idempotencyBeforeAuth } from './idempotency/idempotency-before-auth.js';
import { idempotencyHmacOnly } from './idempotency/idempotency-hmac-only.js';
import { idempotencyKeyIncludesBody } from './idempotency/idempotency-key-includes-body.js';
import { idempotencyMissing } from './idempotency/idempotency-missing.js';
import { idempotencyNeverExpires } from './idempotency/idempotency-never-expires.js';
import { idempotencyPerTenant } from './idempotency/idempotency-per-tenant.js';
import { idempotencyRacyClaim } from './idempotency/idempotency-racy-claim.js';
import { idempotencyTtl1Day } from './idempotency/idempotency-ttl-1-day.js';
import { runBeforeIdempotencyCheck } from './idempotency/run-before-idempotency-check.js';
import { jwksUnreachableAccepted } from './jwt/jwks-unreachable-accepted.js';
import { jwtAlgNoneAccepted } from './jwt/jwt-alg-none-accepted.js';
import { jwtAnyScheme } from './jwt/jwt-any-scheme.js';
import { jwtAudIgnored } from './jwt/jwt-aud-ignored.js';
import { jwtAuthOptional } from './jwt/jwt-auth-optional.js';
import { jwtClaimsOptional } from './jwt/jwt-claims-optional.js';
import { jwtEddsaUnsupported } from './jwt/jwt-eddsa-unsupported.js';
import { jwtEs256Unsupported } from './jwt/jwt-es256-unsupported.js';
import { jwtExpIgnored } from './jwt/jwt-exp-ignored.js';
import { jwtExpMax5Minutes } from './jwt/jwt-exp-max-5-minutes.js';
import { jwtExpUnbounded } from './jwt/jwt-exp-unbounded.js';
import { jwtExpiredAccepted } from './jwt/jwt-expired-accepted.js';
import { jwtFirstKeyWithoutKid } from './jwt/jwt-first-key-without-kid.js';
import { jwtHs256PublicKey } from './jwt/jwt-hs256-public-key.js';
import { jwtHtbHexAccepted } from './jwt/jwt-htb-hex-accepted.js';
import { jwtHtbIgnored } from './jwt/jwt-htb-ignored.js';
import { jwtHtbOverParsedJson } from './jwt/jwt-htb-over-parsed-json.js';
import { jwtHtmIgnored } from './jwt/jwt-htm-ignored.js';
import { jwtJtiIgnored } from './jwt/jwt-jti-ignored.js';
import { jwtKidIgnored } from './jwt/jwt-kid-ignored.js';
import { jwtRs256Unsupported } from './jwt/jwt-rs256-unsupported.js';
import { jwtSignatureUnverified } from './jwt/jwt-signature-unverified.js';
import { jwtSubIgnored } from './jwt/jwt-sub-ignored.js';
import { jwtHeaderJwkTrusted } from './jwt/jwt-header-jwk-trusted.js';
import { jwtJkuFollowed } from './jwt/jwt-jku-followed.js';
import { jwtKidPathRead } from './jwt/jwt-kid-path-read.js';
import { jwtCritIgnored } from './jwt/jwt-crit-ignored.js';
import { jwtKeyChosenByAlg } from './jwt/jwt-key-chosen-by-alg.js';
import { jwtEcdsaZeroAccepted } from './jwt/jwt-ecdsa-zero-accepted.js';
import { jwtEcdsaUnreduced } from './jwt/jwt-ecdsa-unreduced.js';
import { jwtEcdsaDerAccepted } from './jwt/jwt-ecdsa-der-accepted.js';
import { jwtSignatureTrailingBytes } from './jwt/jwt-signature-trailing-bytes.js';
import { jwtVerifiedSignatureCache } from './jwt/jwt-verified-signature-cache.js';
import { jwtNumericDateStrings } from './jwt/jwt-numeric-date-strings.js';
import { jwtExpComparedAsDate } from './jwt/jwt-exp-compared-as-date.js';
import { jwtNbfIgnored } from './jwt/jwt-nbf-ignored.js';
import { jwtAudNormalised } from './jwt/jwt-aud-normalised.js';
import { jwtSubPrefixMatch } from './jwt/jwt-sub-prefix-match.js';
import { jwtAudAnyOf } from './jwt/jwt-aud-any-of.js';
import { jwtClaimsFirstWins } from './jwt/jwt-claims-first-wins.js';
import { jwtDuplicateClaimsLastWins } from './jwt/jwt-duplicate-claims-last-wins.js';
import { jwksCachedForever } from './jwt/jwks-cached-forever.js';
import { ownersIdsAsObjects } from './owners/owners-ids-as-objects.js';
import { ownersLastDropped } from './owners/owners-last-dropped.js';
import { ownersRouteTrailingSlash } from './owners/owners-route-trailing-slash.js';
import { ownersTextPlain } from './owners/owners-text-plain.js';
import { ownersUnknownAppEmpty } from './owners/owners-unknown-app-empty.js';
import { ownersWrappedInData } from './owners/owners-wrapped-in-data.js';
import { pageEarlyEnd } from './pagination/page-early-end.js';
import { pageEmptyFirstTokenRefused } from './pagination/page-empty-first-token-refused.js';
import { pageEmptyListNull } from './pagination/page-empty-list-null.js';
import { pageItemsUnwrapped } from './pagination/page-items-unwrapped.js';
import { pageLaggingEnd } from './pagination/page-lagging-end.js';
import { pageNextTokenSnakeCase } from './pagination/page-next-token-snake-case.js';
import { pageNullEndToken } from './pagination/page-null-end-token.js';
import { pageOverlap } from './pagination/page-overlap.js';
import { pageSizeAboveMaxAsDefault } from './pagination/page-size-above-max-as-default.js';
import { pageSizeBelowMinHonoured } from './pagination/page-size-below-min-honoured.js';
import { pageSizeBoundsExclusive } from './pagination/page-size-bounds-exclusive.js';
import { pageSizeDefault50 } from './pagination/page-size-default-50.js';
import { pageSizeLenientParse } from './pagination/page-size-lenient-parse.js';
import { pageSizeZeroAsDefault } from './pagination/page-size-zero-as-default.js';
import { pageSkip } from './pagination/page-skip.js';
import { pageTokenNotValidated } from './pagination/page-token-not-validated.js';
import { pageTrailingEmptyPage } from './pagination/page-trailing-empty-page.js';
import { inactiveAnswered200 } from './runs/inactive-answered-200.js';
import { runBeforeValidation } from './runs/run-before-validation.js';
import { runNotStarted } from './runs/run-not-started.js';
import { runnerContextAnnotated } from './runs/runner-context-annotated.js';
import { runnerContextAsciiOnly } from './runs/runner-context-ascii-only.js';
import { runnerRunsTwice } from './runs/runner-runs-twice.js';
import { triggerToggleIgnored } from './runs/trigger-toggle-ignored.js';
import { assertionAlgNoneAccepted } from './tokens/assertion-alg-none-accepted.js';
import { assertionAudArrayRefused } from './tokens/assertion-aud-array-refused.js';
import { assertionAudAsUrl } from './tokens/assertion-aud-as-url.js';
import { assertionAudIgnored } from './tokens/assertion-aud-ignored.js';
import { assertionExpOptional } from './tokens/assertion-exp-optional.js';
import { assertionExpUnbounded } from './tokens/assertion-exp-unbounded.js';
import { assertionExpiredAccepted } from './tokens/assertion-expired-accepted.js';
import { assertionGrantUnsupported } from './tokens/assertion-grant-unsupported.js';
import { assertionHeaderParamsStrict } from './tokens/assertion-header-params-strict.js';
import { assertionIatRequired } from './tokens/assertion-iat-required.js';
import { assertionIssIgnored } from './tokens/assertion-iss-ignored.js';
import { assertionKidRefused } from './tokens/assertion-kid-refused.js';
import { assertionNbfRefused } from './tokens/assertion-nbf-refused.js';
import { assertionSignatureUnverified } from './tokens/assertion-signature-unverified.js';
import { assertionSubIgnored } from './tokens/assertion-sub-ignored.js';
import { assertionTokenExpiresInFraction } from './tokens/assertion-token-expires-in-fraction.js';
import { assertionTypRefused } from './tokens/assertion-typ-refused.js';
import { assertionTypeIgnored } from './tokens/assertion-type-ignored.js';
import { basicGrantUnsupported } from './tokens/basic-grant-unsupported.js';
import { credentialCidrsAssertionOnly } from './tokens/credential-cidrs-assertion-only.js';
import { credentialCidrsIgnored } from './tokens/credential-cidrs-ignored.js';
import { credentialLifespanIgnored } from './tokens/credential-lifespan-ignored.js';
import { tokenAccessTokenCamelCase } from './tokens/token-access-token-camel-case.js';
import { tokenAnyGrantType } from './tokens/token-any-grant-type.js';
import { tokenCacheable } from './tokens/token-cacheable.js';
import { tokenCredentialBySecret } from './tokens/token-credential-by-secret.js';
import { tokenExpiresInString } from './tokens/token-expires-in-string.js';
import { tokenGrantTypeOptional } from './tokens/token-grant-type-optional.js';
import { tokenJsonBodyAccepted } from './tokens/token-json-body-accepted.js';
import { tokenRefusalsAs400 } from './tokens/token-refusals-as-400.js';
import { tokenRefusalsAs401 } from './tokens/token-refusals-as-401.js';
import { tokenResponseTextPlain } from './tokens/token-response-text-plain.js';
import { tokenSecretNotVerified } from './tokens/token-secret-not-verified.js';
import { tokenTypeJwt } from './tokens/token-type-jwt.js';
import { assertionHeaderJwkTrusted } from './tokens/assertion-header-jwk-trusted.js';
import { assertionJkuFollowed } from './tokens/assertion-jku-followed.js';
import { assertionKidPathRead } from './tokens/assertion-kid-path-read.js';
import { assertionCritIgnored } from './tokens/assertion-crit-ignored.js';
import { assertionSignatureTrailingBytes } from './tokens/assertion-signature-trailing-bytes.js';
import { assertionVerifiedSignatureCache } from './tokens/assertion-verified-signature-cache.js';
import { assertionIssCaseInsensitive } from './tokens/assertion-iss-case-insensitive.js';
import { assertionSubPrefixMatch } from './tokens/assertion-sub-prefix-match.js';
import { tokenBasicCredentialsAccepted } from './tokens/token-basic-credentials-accepted.js';
import { tokenQueryCredentialsAccepted } from './tokens/token-query-credentials-accepted.js';
import { bodyLimitExclusive } from './webhooks/body-limit-exclusive.js';
import { bodyLimitNotEnforced } from './webhooks/body-limit-not-enforced.js';
import { contentTypeExactMatch } from './webhooks/content-type-exact-match.js';
import { contentTypeOptional } from './webhooks/content-type-optional.js';
import { eventIdAnyUuidVersion } from './webhooks/event-id-any-uuid-version.js';
import { eventIdHeaderOptional } from './webhooks/event-id-header-optional.js';
import { eventIdHyphensOptional } from './webhooks/event-id-hyphens-optional.js';
import { eventIdNilAccepted } from './webhooks/event-id-nil-accepted.js';
import { eventIdNotValidated } from './webhooks/event-id-not-validated.js';
import { eventIdUppercaseRefused } from './webhooks/event-id-uppercase-refused.js';
import { eventIdVariantUnchecked } from './webhooks/event-id-variant-unchecked.js';
import { jsonEmptyBodyAsObject } from './webhooks/json-empty-body-as-object.js';
import { jsonNotValidated } from './webhooks/json-not-validated.js';
import { listenerCidrs401 } from './webhooks/listener-cidrs-401.js';
import { listenerCidrsIgnored } from './webhooks/listener-cidrs-ignored.js';
import { timestampEmptyAsNow } from './webhooks/timestamp-empty-as-now.js';
import { timestampFutureUnbounded } from './webhooks/timestamp-future-unbounded.js';
import { timestampHeaderOptional } from './webhooks/timestamp-header-optional.js';
import { timestampIsoAccepted } from './webhooks/timestamp-iso-accepted.js';
import { timestampMillisecondsAccepted } from './webhooks/timestamp-milliseconds-accepted.js';
import { timestampPastUnbounded } from './webhooks/timestamp-past-unbounded.js';
import { timestampRefused401 } from './webhooks/timestamp-refused-401.js';
import { timestampWindow10Minutes } from './webhooks/timestamp-window-10-minutes.js';
import { timestampWindow60s } from './webhooks/timestamp-window-60s.js';
import { unknownListener401 } from './webhooks/unknown-listener-401.js';
import { webhookAccepted202 } from './webhooks/webhook-accepted-202.js';
import type { FaultDefinition } from './types.js';

export const ALL_FAULTS: readonly FaultDefinition[] = [
  // credentials
  clientIdWithPort,
  clientIdWithoutUseCase,
  secretEmptyServiceDomain,
  secretJwkMismatchedX,
  secretJwkWrongCurve,
  secretPaddedBase64,
  secretVersionV2,
  secretWrongPrefix,
  // tokens
  assertionAlgNoneAccepted,
  assertionAudArrayRefused,
  assertionAudAsUrl,
  assertionAudIgnored,
  assertionExpOptional,
  assertionExpUnbounded,
  assertionExpiredAccepted,
  assertionGrantUnsupported,
  assertionHeaderParamsStrict,
  assertionIatRequired,
  assertionIssIgnored,
  assertionKidRefused,
  assertionNbfRefused,
  assertionSignatureUnverified,
  assertionSubIgnored,
  assertionTokenExpiresInFraction,
  assertionTypRefused,
  assertionTypeIgnored,
  basicGrantUnsupported,
  credentialCidrsAssertionOnly,
  credentialCidrsIgnored,
  credentialLifespanIgnored,
  tokenAccessTokenCamelCase,
  tokenAnyGrantType,
  tokenCacheable,
  tokenCredentialBySecret,
  tokenExpiresInString,
  tokenGrantTypeOptional,
  tokenJsonBodyAccepted,
  tokenRefusalsAs400,
  tokenRefusalsAs401,
  tokenResponseTextPlain,
  tokenSecretNotVerified,
  tokenTypeJwt,
  // token attacks
  assertionHeaderJwkTrusted,
  assertionJkuFollowed,
  assertionKidPathRead,
  assertionCritIgnored,
  assertionSignatureTrailingBytes,
  assertionVerifiedSignatureCache,
  assertionIssCaseInsensitive,
  assertionSubPrefixMatch,
  tokenBasicCredentialsAccepted,
  tokenQueryCredentialsAccepted,
  // api
  api401WithoutChallenge,
  api403ForInvalidToken,
  apiAnyBearerAccepted,
  apiAssertionTokensRefused,
  apiAuthOptionalEntitlements,
  apiAuthOptionalOwners,
  apiBasicSchemeAccepted,
  apiEmptyBearerAccepted,
  apiEntitlementsForbidden,
  apiTokenActivationLag,
  apiTokenExpiryIgnored,
  apiTokenPrefixMatch,
  // owners
  ownersIdsAsObjects,
  ownersLastDropped,
  ownersRouteTrailingSlash,
  ownersTextPlain,
  ownersUnknownAppEmpty,
  ownersWrappedInData,
  // pagination
  pageEarlyEnd,
  pageEmptyFirstTokenRefused,
  pageEmptyListNull,
  pageItemsUnwrapped,
  pageLaggingEnd,
  pageNextTokenSnakeCase,
  pageNullEndToken,
  pageOverlap,
  pageSizeAboveMaxAsDefault,
  pageSizeBelowMinHonoured,
  pageSizeBoundsExclusive,
  pageSizeDefault50,
  pageSizeLenientParse,
  pageSizeZeroAsDefault,
  pageSkip,
  pageTokenNotValidated,
  pageTrailingEmptyPage,
  // webhooks
  bodyLimitExclusive,
  bodyLimitNotEnforced,
  contentTypeExactMatch,
  contentTypeOptional,
  eventIdAnyUuidVersion,
  eventIdHeaderOptional,
  eventIdHyphensOptional,
  eventIdNilAccepted,
  eventIdNotValidated,
  eventIdUppercaseRefused,
  eventIdVariantUnchecked,
  jsonEmptyBodyAsObject,
  jsonNotValidated,
  listenerCidrs401,
  listenerCidrsIgnored,
  timestampEmptyAsNow,
  timestampFutureUnbounded,
  timestampHeaderOptional,
  timestampIsoAccepted,
  timestampMillisecondsAccepted,
  timestampPastUnbounded,
  timestampRefused401,
  timestampWindow10Minutes,
  timestampWindow60s,
  unknownListener401,
  webhookAccepted202,
  // hmac
  hmacAnyPartOrder,
  hmacBodyOptionalInInput,
  hmacDecodedKey,
  hmacEitherKey,
  hmacHexAccepted,
  hmacHexDigest,
  hmacOverReserialisedBody,
  hmacPaddedBase64Only,
  hmacPrefixCompare,
  hmacPresenceOnly,
  hmacSeparatorsOptional,
  hmacSignatureOptional,
  hmacStandardBase64Accepted,
  hmacTimestampUnbound,
  webhookAuthFailure400,
  // jwt
  jwksUnreachableAccepted,
  jwtAlgNoneAccepted,
  jwtAnyScheme,
  jwtAudIgnored,
  jwtAuthOptional,
  jwtClaimsOptional,
  jwtEddsaUnsupported,
  jwtEs256Unsupported,
  jwtExpIgnored,
  jwtExpMax5Minutes,
  jwtExpUnbounded,
  jwtExpiredAccepted,
  jwtFirstKeyWithoutKid,
  jwtHs256PublicKey,
  jwtHtbHexAccepted,
  jwtHtbIgnored,
  jwtHtbOverParsedJson,
  jwtHtmIgnored,
  jwtJtiIgnored,
  jwtKidIgnored,
  jwtRs256Unsupported,
  jwtSignatureUnverified,
  jwtSubIgnored,
  // jwt attacks
  jwtHeaderJwkTrusted,
  jwtJkuFollowed,
  jwtKidPathRead,
  jwtCritIgnored,
  jwtKeyChosenByAlg,
  jwtEcdsaZeroAccepted,
  jwtEcdsaUnreduced,
  jwtEcdsaDerAccepted,
  jwtSignatureTrailingBytes,
  jwtVerifiedSignatureCache,
  jwtNumericDateStrings,
  jwtExpComparedAsDate,
  jwtNbfIgnored,
  jwtAudNormalised,
  jwtSubPrefixMatch,
  jwtAudAnyOf,
  jwtClaimsFirstWins,
  jwtDuplicateClaimsLastWins,
  jwksCachedForever,
  // idempotency
  duplicateAnswered200,
  idempotencyBeforeAuth,
  idempotencyHmacOnly,
  idempotencyKeyIncludesBody,
  idempotencyMissing,
  idempotencyNeverExpires,
  idempotencyPerTenant,
  idempotencyRacyClaim,
  idempotencyTtl1Day,
  runBeforeIdempotencyCheck,
  // runs
  inactiveAnswered200,
  runBeforeValidation,
  runNotStarted,
  runnerContextAnnotated,
  runnerContextAsciiOnly,
  runnerRunsTwice,
  triggerToggleIgnored,
];
