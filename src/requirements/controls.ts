/**
 * Positive controls (ruling 30) and prerequisites: which check proves that a refusal meant something, and
 * which check a failure follows from. A refusal proves a rule only if the same request, unspoiled, is
 * accepted by the same target in the same run: a server that answers 404 to everything "refuses" every
 * spoiled token request too. So every MUST or SHOULD check that expects a refusal names its CONTROL, the
 * check that sends the accepted form of the same request to the same endpoint, listener and credential.
 * The engine reports a refusal check `blocked` (never passed) when its control failed, errored or was
 * itself blocked, and skipped when its control was skipped (src/engine/controls.ts).
 *
 * Where no accepted form of the very request exists (an expired or IP-restricted credential, a listener
 * restricted to other addresses, an inactive automation, a listener the service never generated, a JWKS
 * that cannot be reached), the control is the same request on the same endpoint with the profile's usable
 * credential or listener: what the target must accept for the refusal to be about the defect.
 *
 * A control given as a list (JWT listener refusals) holds only when every listed check that ran passed:
 * those checks send with the listener's first key, whose algorithm the catalogue cannot know in advance.
 *
 * PREREQUISITES name, for checks that expect an acceptance, the more basic acceptance they build on (a body
 * at the limit builds on a valid webhook, an API call on a token). They never change a state; they only
 * group failures under the one they follow from in reports (src/engine/root-causes.ts).
 *
 * tests/requirements/controls.test.ts fails on a refusal check of the catalogue or the suites without a
 * control here.
 */
import type { RequirementId } from './catalogue.js';

/** One control, or every listed check that ran (see above). */
export type ControlRef = RequirementId | readonly RequirementId[];

/** The JWT listener's acceptance checks, one per algorithm a profile may list (each skipped without it). */
const JWT_VALID = ['WH-JWT-01', 'WH-JWT-02', 'WH-JWT-03'] as const satisfies readonly RequirementId[];

/** Every ID in `ids` mapped to `control`. */
function all(ids: readonly RequirementId[], control: ControlRef): Partial<Record<RequirementId, ControlRef>> {
  return Object.fromEntries(ids.map((id) => [id, control]));
}

/** `<prefix>NN` for NN from … to, zero-padded to two digits as the catalogue writes them (`TOK-X` → TOK-X01). */
function range(prefix: string, from: number, to: number): RequirementId[] {
  const ids: string[] = [];
  for (let n = from; n <= to; n += 1) ids.push(`${prefix}${String(n).padStart(2, '0')}`);
  return ids as RequirementId[];
}

/** Refusal check → its positive control. */
export const REFUSAL_CONTROLS: Readonly<Partial<Record<RequirementId, ControlRef>>> = {
  // §4.1 token endpoint: assertion refusals against the valid assertion, basic-method ones against TOK-01.
  ...all(range('TOK-', 9, 18), 'TOK-02'),
  ...all(range('TOK-', 25, 36), 'TOK-01'),
  // The restricted credentials cannot get a token from the harness's address: the same method with the
  // primary credential is the accepted form.
  ...all(['TOK-37', 'TOK-39'], 'TOK-01'),
  ...all(['TOK-38', 'TOK-40', 'TOK-41'], 'TOK-02'),
  ...all([...range('TOK-X', 1, 8), 'TOK-X11', 'TOK-X12'], 'TOK-02'),
  ...all(['TOK-X09', 'TOK-X10'], 'TOK-01'),
  ...all(['CRED-X01', 'CRED-X02', 'CRED-X03'], 'TOK-01'),
  // §5.1 API calls: the owner-ID list against AUTH-10, the entitlement list against AUTH-12.
  ...all(['AUTH-01', 'AUTH-03'], 'AUTH-12'),
  ...all(['AUTH-02', 'AUTH-04', 'AUTH-05', 'AUTH-06', 'AUTH-07', 'AUTH-08', 'AUTH-09'], 'AUTH-10'),
  ...all(['OWN-07', 'OWN-08'], 'OWN-01'),
  // Ruling 34: every list and search operation's refusals against its own first page with a fresh token
  // (matched per operation: OPS-01@GET /api/v1/apps against OPS-18@GET /api/v1/apps, src/engine/controls.ts).
  ...all(['OPS-01', 'OPS-02', 'OPS-03', 'OPS-13'], 'OPS-18'),
  // §4.4 pagination: the first page of the large app answered 200 with a list.
  ...all(['PAGE-11', 'PAGE-12', 'PAGE-28', 'PAGE-29'], 'PAGE-27'),
  ...all([...range('PAGE-X', 1, 3), 'PAGE-X06', ...range('PAGE-', 31, 34)], 'PAGE-27'),
  // §5.4 webhooks on the HMAC listener: a valid request accepted.
  ...all(['WH-03', ...range('WH-', 6, 18), 'WH-30', 'WH-20', 'WH-21', 'WH-22', 'WH-24', 'WH-25', 'WH-26', 'WH-27'], 'WH-01'),
  ...all(['WH-X01', ...range('WH-X', 3, 7), ...range('WH-X', 9, 27)], 'WH-01'),
  ...all([...range('WH-HMAC-', 2, 17), ...range('WH-HMAC-X', 1, 12)], 'WH-HMAC-01'),
  // §5.4 webhooks on the JWT listener.
  ...all([...range('WH-JWT-', 4, 25), 'WH-JWT-27'], JWT_VALID),
  ...all(['WH-JWT-X01', 'WH-JWT-X02', 'WH-JWT-X03', 'WH-JWT-X04', 'WH-JWT-X05', 'WH-JWT-X09', ...range('WH-JWT-X', 11, 18), 'WH-JWT-X20', 'WH-JWT-X21', 'WH-JWT-X22'], JWT_VALID),
  ...all(['WH-JWT-X06', 'WH-JWT-X07', 'WH-JWT-X08'], 'WH-JWT-02'),
  'WH-JWT-X10': 'WH-JWT-03',
  // §5.5 idempotency and §6 automations: duplicates (409), inactive automations, refused requests.
  ...all(['IDEM-01', 'IDEM-03', 'IDEM-07', 'IDEM-09', 'IDEM-11', 'IDEM-13', 'IDEM-X01'], 'WH-01'),
  'IDEM-10': JWT_VALID,
  ...all(['RUN-04', 'RUN-05', 'RUN-06', 'RUN-07', 'RUN-08'], 'WH-01'),
};

/**
 * Refusal checks that also make their own control request within the check, asserted before the refusal
 * (`expectSetupAccepted` in suites/support/webhook-expect.ts, `expectControlTokenIssued` in token-checks.ts): the first of two duplicates, the donor of a
 * spliced signature, the control of an alphabet. When that request is not accepted, the check is blocked.
 */
export const OWN_CONTROL_REQUEST: ReadonlySet<RequirementId> = new Set<RequirementId>([
  'IDEM-01', 'IDEM-03', 'IDEM-07', 'IDEM-09', 'IDEM-10', 'IDEM-11', 'IDEM-13', 'IDEM-X01', 'WH-X25', 'RUN-06', 'WH-HMAC-12', 'WH-JWT-X10', 'TOK-X06',
  'OPS-01', 'OPS-02', 'OPS-03', 'OPS-13',
]);

/** Acceptance check → the acceptance it builds on (grouping only). */
export const PREREQUISITES: Readonly<Partial<Record<RequirementId, ControlRef>>> = {
  ...all(['TOK-03', 'TOK-04', 'TOK-05', 'TOK-06', 'TOK-07', 'TOK-08', 'TOK-24'], 'TOK-02'),
  ...all(['TOK-19', 'TOK-20', 'TOK-21', 'TOK-22', 'TOK-23'], 'TOK-01'),
  ...all(['AUTH-10', 'AUTH-12'], 'TOK-01'),
  'AUTH-11': 'TOK-02',
  'OWN-01': 'AUTH-10',
  ...all(['OWN-02', 'OWN-03', 'OWN-04', 'OWN-05', 'OWN-06', 'OWN-X01'], 'OWN-01'),
  'PAGE-27': 'AUTH-12',
  'OPS-18': 'TOK-01',
  ...all(['OPS-04', 'OPS-05', 'OPS-06', 'OPS-07', 'OPS-08', 'OPS-09', 'OPS-10', 'OPS-11', 'OPS-12', 'OPS-14', 'OPS-15', 'OPS-16', 'OPS-17'], 'OPS-18'),
  ...all([...range('PAGE-', 1, 10), ...range('PAGE-', 13, 26), 'PAGE-30'], 'PAGE-27'),
  ...all(['WH-02', 'WH-04', 'WH-05', 'WH-19', 'WH-23', 'WH-X02', 'WH-HMAC-01'], 'WH-01'),
  ...all(['IDEM-02', 'IDEM-04', 'IDEM-05', 'IDEM-06', 'IDEM-08', 'IDEM-X02', 'RUN-01', 'RUN-02'], 'WH-01'),
  ...all(range('RUN-X', 1, 8), 'WH-01'),
  ...all(['RUN-03', 'WH-JWT-26', 'WH-JWT-X19'], JWT_VALID),
};

/** The control of a refusal check, as a list (empty: the check expects no refusal). */
export function controlsOf(id: string): RequirementId[] {
  return asList((REFUSAL_CONTROLS as Record<string, ControlRef | undefined>)[id]);
}

/** The checks a check's failure may follow from: its control, else its prerequisite. */
export function parentsOf(id: string): RequirementId[] {
  const control = controlsOf(id);
  return control.length > 0 ? control : asList((PREREQUISITES as Record<string, ControlRef | undefined>)[id]);
}

function asList(ref: ControlRef | undefined): RequirementId[] {
  if (ref === undefined) return [];
  return typeof ref === 'string' ? [ref] : [...ref];
}
