/**
 * The service's OpenAPI description as the harness reads it, and the operations it plans to call
 * (ruling 34). Plain JSON throughout: a plan travels to the suite thread in `RunContext.operations`.
 */

/** Where a list or search operation takes its page size and token: the query (GET), the JSON body (POST), or nowhere. */
export type Pagination = 'query' | 'body' | false;

import type { RequiredBody } from './body-fill.js';
import type { OperationRef } from './operation.js';
export type { RequiredBody } from './body-fill.js';
export type { OperationRef } from './operation.js';

/** The page-size and page-token property names of a POST body. */
export interface BodyFieldNames {
  pageSize: string;
  pageToken: string;
}

/** One operation of the description (or of the profile's `"operations"`), classified. */
export interface DescribedOperation extends OperationRef {
  tags: string[];
  paginated: Pagination;
  /** Whether the harness calls it: only operations that read (ruling 34), and only those it can fill. */
  called: boolean;
  /** Why it is not called (set exactly when `called` is false). */
  reason?: string;
  /**
   * Not called only because its name leaves it in doubt (ruling 35: no word names a change, but it is not
   * named a search or list): the user may call it by naming it (`run --allow-operation 'METHOD path'`).
   */
  optIn?: true;
  /** Called because the user named it (`--allow-operation`), not because the rules say it reads. */
  optedIn?: true;
  /** Never called whatever the profile or the user says (it declares a method override): `reason` says why. */
  vetoed?: true;
  /** The `{name}`s of `path`, in order. */
  pathParams: string[];
  /**
   * For `paginated: 'body'`: the spelling the description declares (MUST be honoured), and the other one
   * (service.md's `page_size`, or the camelCase one) which SHOULD be (ruling 34).
   */
  bodyFields?: BodyFieldNames & { alsoAccepts?: BodyFieldNames };
  /**
   * For `paginated: 'body'`: the body's required fields (other than the page fields) filled from the schema
   * (`const`, `example`, `default`, `enum`), and those it gives no value for (ruling 35).
   */
  requiredBody?: RequiredBody;
  /** The response's array of items (`list` in the service). */
  listProperty?: string;
  /** The property each item wraps its object in, where the description or service.md names one (e.g. `appEntitlement`). */
  itemWrapper?: string;
  /**
   * The 200 response's JSON schema, self-contained (every `$ref` it reaches is under its own `$defs`, so a
   * recursive schema stays finite and plain JSON), for the SHOULD validation of each answer.
   */
  responseSchema?: unknown;
}

/** An operation the harness will call, with its path parameters filled. */
export interface PlannedOperation extends DescribedOperation {
  /** Path parameter name → value (from the profile's app IDs or the operation's own entry). */
  params: Record<string, string>;
  /** The path as sent: the template with each parameter percent-encoded as one segment (ruling 35). */
  sentPath: string;
  /**
   * The JSON body a search starts from (the page fields are added to it): its required fields filled from
   * the description, then the profile's `"operations"` entry `body` over them; `{}` when neither gives any.
   */
  baseBody?: Record<string, unknown>;
}

/** The facts of the description itself that ruling 34 checks (§9, §5.1). */
export interface DescriptionFacts {
  /** Where it was read from: a file path or a URL (never with credentials). */
  source: string;
  /** The `openapi` field as written (e.g. `3.1.0`). */
  openapi: string;
  /** SHA-256 (hex) of the description's text as read, UTF-8: what `run --attest` binds the run to. */
  sha256?: string;
  /** `info.version`, when present. */
  infoVersion?: string;
  /** `components.securitySchemes`, each reduced to what §5.1 names. */
  securitySchemes: SecuritySchemeFact[];
  /** The owner-IDs operation, when the description has the path `/api/v1/apps/{app_id}/ownerids`. */
  ownerIds?: { operationId?: string; tags: string[] };
  /** Operations found, paginated ones, and how many the harness calls. */
  counts: { operations: number; paginated: number; query: number; body: number };
}

export interface SecuritySchemeFact {
  name: string;
  type: string;
  /** `http` schemes: the scheme (`bearer`). */
  scheme?: string;
  /** `oauth2` schemes: the client-credentials flow's token URL and scope names. */
  clientCredentials?: { tokenUrl?: string; scopes: string[] };
  /** `oauth2` schemes: the other flows it declares. */
  otherFlows?: string[];
}

/** The profile's `"operations"` entry (declared with the profile, which reads it). */
export type { ProfileOperation } from '../profile/types.js';

/** What the run calls and what it leaves alone, and why. */
export interface OperationPlan {
  called: PlannedOperation[];
  /** Each with its reason: changes data, not paginated, `path parameter {app_id} cannot be filled from the profile`, … */
  notCalled: DescribedOperation[];
  /** Absent when the run has no description (the profile's `"operations"` alone, or nothing). */
  description?: DescriptionFacts;
}
