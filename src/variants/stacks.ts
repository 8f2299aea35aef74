/**
 * The mainstream stacks the variants stand for, each as the variants that together are its default
 * behaviour where the spec is open. The self-verification runs each stack's variants combined against the
 * whole catalogue: an implementation on that stack that follows service.md passes the default run.
 * The reference itself is the Node http reading: repeated header lines joined with `, ` (RFC 9110 §5.3),
 * `JSON.parse` (the last duplicate member wins), 413 for a body over the limit.
 */
import type { VariantName } from './readings.js';
import type { StackDefinition } from './types.js';

/** Each stack's variants by name, typed from the variants' table: a name that is not a variant does not compile. */
export const STACKS: readonly StackDefinition<VariantName>[] = [
  {
    name: 'stack-go-net-http',
    title: 'Go net/http + encoding/json (golang-jwt, google/uuid)',
    // Measured against fixtures/stacks/go-net-http (tests/stacks/go-net-http.e2e.test.ts): under --strict it warns
    // on exactly the checks these variants declare.
    variants: [
      'event-id-uuid-forms',
      'jwt-duplicate-claims-last-wins',
      'jwt-aud-array',
      'jwt-iat-unread',
      'jwt-null-claims-absent',
      'page-size-go-atoi',
      'body-limit-400',
      'jwks-refresh-on-unknown-kid',
      'headers-first-line',
      'context-numbers-as-doubles',
      'json-invalid-utf8-replaced',
    ],
  },
  {
    name: 'stack-grpc-gateway',
    title: 'grpc-gateway + protobuf JSON + go-jose (the stack the real service\'s operation names point to)',
    // Rulings 31–34 were measured on this stack (issue 29); Go's encoding/json and net/http underneath.
    variants: [
      'event-id-uuid-forms',
      'jwt-duplicate-claims-last-wins',
      'jwt-null-claims-absent',
      'page-size-go-atoi',
      'page-size-zero-default',
      'page-empty-list-null',
      'headers-first-line',
      'context-numbers-as-doubles',
    ],
  },
  {
    name: 'stack-node-http',
    title: 'Node http + JSON.parse (jose, Express)',
    variants: ['context-numbers-as-doubles', 'jwt-aud-array', 'unknown-listener-401', 'search-body-camel-case-only'],
  },
  {
    name: 'stack-fastapi',
    title: 'FastAPI + pydantic + PyJWT (Starlette, Python uuid and json)',
    variants: [
      'event-id-uuid-forms',
      'jwt-numeric-date-strings',
      'jwt-duplicate-claims-last-wins',
      'jwt-aud-array',
      'page-size-pydantic-int',
      'json-bom-accepted',
      'json-utf8-surrogates-accepted',
      'context-decimals-as-floats',
      'token-errors-fastapi-detail',
      'headers-first-line',
    ],
  },
];
