import type { Catalogue, RequirementSpec } from './types.js';
import { bearerHeader, belowTen, ruling, spec } from './authority.js';

/**
 * Requirements of every list and search operation (ruling 34; service.md §1, §4.4, §5.1; rulings 6, 9–12,
 * 32, 33): each has ONE RESULT PER OPERATION the run calls (the operations of the target's OpenAPI
 * description, or of the profile's `"operations"`, src/openapi), keyed `OPS-04@POST /api/v1/search/apps`.
 * `perOperation` says which of the called operations a requirement applies to ({@link appliesTo}); a
 * requirement that applies to none reports one skipped result saying why.
 */
const bodyForPost = spec('4.4', 'query for GET; body for POST');

export const operationsRequirements = {
  'OPS-01': {
    section: '5.1',
    ruling: 34,
    level: 'MUST',
    text: 'Every list and search operation refuses a call without a token (401), while the same call with a fresh token is accepted.',
    group: 'operations',
    needs: [],
    authority: bearerHeader,
    perOperation: 'every',
  },
  'OPS-02': {
    section: '5.1',
    ruling: 34,
    level: 'MUST',
    text: 'Every list and search operation refuses a call with an unknown token (401), while the same call with a fresh token is accepted.',
    group: 'operations',
    needs: [],
    authority: ruling(6),
    perOperation: 'every',
  },
  'OPS-03': {
    section: '5.1',
    ruling: 34,
    level: 'MUST',
    text: 'Every list and search operation refuses a token past its expires_in (target clock advanced) with 401, having accepted it before.',
    group: 'operations',
    needs: ['hooks.clock'],
    authority: ruling(6),
    movesClock: true,
    perOperation: 'every',
  },
  'OPS-04': {
    section: '4.4',
    ruling: 11,
    level: 'MUST',
    text: 'nextPageToken is a string on every page, non-empty while items remain and "" on the page that holds the last item.',
    group: 'operations',
    needs: [],
    authority: ruling(11),
    perOperation: 'paginated',
  },
  'OPS-05': {
    section: '4.4',
    ruling: 9,
    level: 'MUST',
    text: 'Without a page size the first page holds min(total, 25) items, with a non-empty nextPageToken exactly when more remain: "Default 25".',
    group: 'operations',
    needs: [],
    authority: spec('4.4', 'Default 25.'),
    perOperation: 'paginated',
  },
  'OPS-06': {
    section: '4.4',
    ruling: 9,
    level: 'MUST',
    text: 'A page size of 9 acts as 10: "A value below 10 acts as 10".',
    group: 'operations',
    needs: [],
    authority: belowTen,
    perOperation: 'paginated',
  },
  'OPS-07': {
    section: '4.4',
    ruling: 9,
    level: 'MUST',
    text: 'A page size of 101 acts as 100: "A value above 100 acts as 100".',
    group: 'operations',
    needs: [],
    authority: spec('4.4', 'A value above 100 acts as 100.'),
    perOperation: 'paginated',
  },
  'OPS-08': {
    section: '4.4',
    ruling: 33,
    level: 'MUST',
    text: 'A page size of 0 acts as 10 or as 25 (ruling 33: the description reads 0 as the default).',
    group: 'operations',
    needs: [],
    authority: ruling(33),
    perOperation: 'paginated',
  },
  'OPS-09': {
    section: '4.4',
    ruling: 33,
    level: 'SHOULD',
    text: 'A page size of 0 acts as 10 (§4.4: "A value below 10 acts as 10").',
    group: 'operations',
    needs: [],
    authority: ruling(33),
    perOperation: 'paginated',
  },
  'OPS-10': {
    section: '4.4',
    ruling: 32,
    level: 'MUST',
    text: 'A page size beyond the integer range (4294967306) is answered with a page acting as 100, never a wrapped size; a refusal of the value is accepted and noted (INFO).',
    group: 'operations',
    needs: [],
    authority: ruling(32),
    perOperation: 'paginated',
  },
  'OPS-11': {
    section: '4.4',
    ruling: 11,
    level: 'MUST',
    text: 'Walking the pages at the default size returns every item exactly once and stops on nextPageToken "".',
    group: 'operations',
    needs: [],
    authority: ruling(11),
    perOperation: 'paginated',
  },
  'OPS-12': {
    section: '4.4',
    ruling: 10,
    level: 'MUST',
    text: 'The nextPageToken of one page opens the next: the second page holds the items that follow the first.',
    group: 'operations',
    needs: [],
    authority: spec('4.4', 'On each later request it must be the `nextPageToken` of the previous response.'),
    perOperation: 'paginated',
  },
  'OPS-13': {
    section: '4.4',
    ruling: 12,
    level: 'SHOULD',
    text: 'A page token the operation never issued is refused with 400, while the first page is served.',
    group: 'operations',
    needs: [],
    authority: ruling(12),
    perOperation: 'paginated',
  },
  'OPS-14': {
    section: '4.4',
    ruling: 34,
    level: 'MUST',
    text: 'A search (POST) honours the page size in its JSON body in the spelling its description declares (pageSize in the real one): "body for POST".',
    group: 'operations',
    needs: [],
    authority: bodyForPost,
    perOperation: 'body',
  },
  'OPS-15': {
    section: '4.4',
    ruling: 34,
    level: 'SHOULD',
    text: 'A search (POST) also honours the page size in the body in the other spelling (service.md\'s page_size, which protobuf\'s JSON mapping accepts).',
    group: 'operations',
    needs: [],
    authority: ruling(34),
    perOperation: 'body',
  },
  'OPS-16': {
    section: '9',
    ruling: 34,
    level: 'SHOULD',
    text: 'Each page of a called operation matches the response schema its description declares.',
    group: 'operations',
    needs: [],
    authority: ruling(34),
    perOperation: 'schema',
  },
  'OPS-17': {
    section: '2.4',
    ruling: 34,
    level: 'MUST',
    text: 'Where the description or service.md names an item wrapper (the entitlements: appEntitlement), every item is wrapped in it.',
    group: 'operations',
    needs: [],
    authority: ruling(34),
    perOperation: 'wrapped',
  },
  'OPS-18': {
    section: '5.1',
    ruling: 34,
    level: 'MUST',
    text: 'Every list and search operation accepts a call with a fresh token: its first page is 200 with a JSON object (the positive control of its refusals).',
    group: 'operations',
    needs: [],
    authority: bearerHeader,
    perOperation: 'every',
  },
} as const satisfies Catalogue;

/** The list and search operation facts {@link appliesTo} reads (a PlannedOperation of src/openapi has them). */
export interface OperationFacts {
  method: string;
  path: string;
  paginated: 'query' | 'body' | false;
  itemWrapper?: string;
  responseSchema?: unknown;
}

/** Which of the called operations a per-operation requirement applies to. */
export type PerOperation = NonNullable<RequirementSpec['perOperation']>;

export function appliesTo(kind: PerOperation, op: OperationFacts): boolean {
  switch (kind) {
    case 'every':
      return true;
    case 'paginated':
      return op.paginated !== false;
    case 'body':
      return op.paginated === 'body';
    case 'wrapped':
      return op.paginated !== false && op.itemWrapper !== undefined && op.itemWrapper !== '';
    case 'schema':
      return op.responseSchema !== undefined;
  }
}

/** Why a per-operation requirement has no operation to check in a run (its one skipped result says it). */
export function noOperationReason(kind: PerOperation, planned: boolean): string {
  if (!planned) return 'the run has no operations to check one by one: the profile names no OpenAPI description ("openapi", or run --openapi) and no "operations"';
  switch (kind) {
    case 'every':
      return 'the run calls no list or search operation';
    case 'paginated':
      return 'the run calls no paginated operation';
    case 'body':
      return 'the run calls no search (POST) operation that takes its page size in the JSON body';
    case 'wrapped':
      return 'no called operation has an item wrapper named by its description or service.md';
    case 'schema':
      return 'no called operation has a response schema in its description';
  }
}

/**
 * Pages one operation's checks may fetch at most (the walks included), with the page sizes they use: the
 * run header states the cost from these, and the suites stop a walk at its share.
 */
export const OPERATION_BUDGET = {
  /** The counting walk at page size 100 (totals are learned, never taken from the profile). */
  censusPages: 30,
  /** The walk at the default size (25). */
  walkPages: 60,
  /** Single requests of the other checks (auth, clamps, tokens, spellings, schema). */
  requests: 14,
} as const;
