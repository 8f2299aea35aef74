/**
 * Positive controls (ruling 30): every MUST or SHOULD check that expects a refusal names its control in
 * src/requirements/controls.ts. "Expects a refusal" is known two ways, and both must agree with the map:
 * the requirement's sentence reads as a refusal ("refused", "gets 401", "mismatch", "does not get 200"…),
 * and the check's body in suites/ asserts one (a 4xx or 409 status, a refusal helper). The suites are
 * scanned as text, so a refusal check added without a control fails here before any run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { allRequirements, isRequirementId, requirement, type RequirementId } from '../../src/requirements/catalogue.js';
import { OWN_CONTROL_REQUEST, PREREQUISITES, REFUSAL_CONTROLS, controlsOf, parentsOf } from '../../src/requirements/controls.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const suitesDir = join(root, 'suites');

/** A requirement sentence that says the target must refuse something. */
const REFUSAL_TEXT = /\b(refused|refuses|gets? (a |any )?4\d\d|4xx|get 400|mismatch|does not get 200|no access_token|gets no|not yet valid|is invalid|invalid|40\d|413|does not (run|lift)|no run|starts no run|never trusted|never followed|must reject)/i;

/**
 * Sentences that read as a refusal but whose check ends by asserting an acceptance (it fails against a
 * target that refuses everything, so it needs no control), with why.
 */
const ACCEPTANCE_DESPITE_WORDING: Partial<Record<RequirementId, string>> = {
  'IDEM-05': 'exactly one of 25 parallel duplicates must get 200',
  'IDEM-X02': 'ends with the same event ID accepted (200) after 7 days',
  'RUN-X04': 'a run must arrive with the numbers as written (the words "not as null" are about the context)',
};

/**
 * Refusal checks whose control needs more of the profile than the check itself: no accepted form of the
 * very request exists (the listener or automation cannot accept it from the harness), so the control is
 * the same request to the profile's usable listener or app. When that control is skipped for lack of its
 * need, the refusal check is skipped too, saying so (src/engine/controls.ts).
 */
const WIDER_CONTROL: Partial<Record<RequirementId, string>> = {
  'OWN-08': 'an unknown app has no accepted form; the owner-ID list of the owners app is',
  'WH-26': 'the IP-restricted listener accepts nothing from the harness; the HMAC listener does',
  'WH-27': 'a listener the service never generated accepts nothing',
  'WH-X22': 'the IP-restricted listener accepts nothing from the harness',
  'WH-X23': 'the IP-restricted listener accepts nothing from the harness',
  'WH-X24': 'the IP-restricted listener accepts nothing from the harness',
  'RUN-04': 'an inactive automation\'s listener accepts nothing',
  'RUN-05': 'an inactive automation\'s listener accepts nothing',
};

/** A check body asserting a refusal: a 4xx or 409 status, or a helper that asserts one. */
const REFUSAL_ASSERTION = /expectStatus\([^;]*?,\s*(4\d\d|\[?\s*4\d\d|REFUSED|OVERSIZE_STATUSES|isClientError)\b|expectTokenRefusal|assertionRefused|expectSignatureRefused|expectJwtRefused|expectAllRefused|expectAll401|expectOAuthError|expect400\(|=== 200\)\s*\{\s*fail\(/;

/** `check('ID', …)` and `checkEach('ID', …)` bodies with a literal ID: from the call to the next check( or the end of the group. */
function literalCheckBodies(): Array<{ id: string; body: string; file: string }> {
  const found: Array<{ id: string; body: string; file: string }> = [];
  for (const file of readdirSync(suitesDir).filter((name) => name.endsWith('.suite.ts'))) {
    const text = readFileSync(join(suitesDir, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const starts = [...text.matchAll(/\bcheck(?:Each)?\(\s*'([A-Z][A-Z0-9-]*)'/g)];
    const allStarts = [...text.matchAll(/\bcheck(?:Each)?\(/g)].map((m) => m.index!);
    for (const match of starts) {
      const start = match.index!;
      const end = allStarts.find((index) => index > start) ?? text.length;
      found.push({ id: match[1]!, body: text.slice(start, end), file });
    }
  }
  return found;
}

const keysOf = (map: object): string[] => Object.keys(map);
const valuesOf = (map: object): string[] => Object.values(map).flatMap((value) => (Array.isArray(value) ? value : [value]) as string[]);

describe('positive controls', () => {
  const requirements = allRequirements();

  test('every ID in the maps is a catalogue ID', () => {
    const ids = [...keysOf(REFUSAL_CONTROLS), ...valuesOf(REFUSAL_CONTROLS), ...keysOf(PREREQUISITES), ...valuesOf(PREREQUISITES), ...OWN_CONTROL_REQUEST];
    expect(ids.length).toBeGreaterThan(150);
    expect(ids.filter((id) => !isRequirementId(id))).toEqual([]);
  });

  test('a control is a MUST acceptance check, never itself a refusal; refusal checks are MUST or SHOULD', () => {
    for (const id of new Set(valuesOf(REFUSAL_CONTROLS))) {
      expect(controlsOf(id), `${id} is a control and a refusal check`).toEqual([]);
      expect(requirement(id as RequirementId).level, id).toBe('MUST');
    }
    for (const id of keysOf(REFUSAL_CONTROLS)) expect(requirement(id as RequirementId).level, id).not.toBe('INFO');
    // A check is a refusal (it has a control) or builds on an acceptance (a prerequisite), not both.
    expect(keysOf(REFUSAL_CONTROLS).filter((id) => id in PREREQUISITES)).toEqual([]);
  });

  test('the chains of controls and prerequisites end (no cycle)', () => {
    for (const req of requirements) {
      const seen = new Set<string>();
      let frontier: string[] = [req.id];
      for (let depth = 0; frontier.length > 0; depth += 1) {
        expect(depth, `${req.id}: a cycle through ${[...seen].join(', ')}`).toBeLessThan(10);
        for (const id of frontier) seen.add(id);
        frontier = frontier.flatMap((id) => parentsOf(id));
      }
    }
  });

  test('every MUST or SHOULD requirement whose sentence reads as a refusal has a control, and only those', () => {
    const missing: string[] = [];
    const extra: string[] = [];
    for (const req of requirements) {
      if (req.level === 'INFO' || req.id in ACCEPTANCE_DESPITE_WORDING) continue;
      const refusal = REFUSAL_TEXT.test(req.text);
      const controlled = controlsOf(req.id).length > 0;
      if (refusal && !controlled) missing.push(`${req.id}: ${req.text}`);
      if (!refusal && controlled) extra.push(`${req.id}: ${req.text}`);
    }
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  test('every check whose body asserts a refusal (a 4xx or 409, a refusal helper) has a control', () => {
    const bodies = literalCheckBodies();
    expect(bodies.length).toBeGreaterThan(100);
    const missing = bodies
      .filter(({ id, body }) => requirement(id as RequirementId).level !== 'INFO' && REFUSAL_ASSERTION.test(body) && !(id in ACCEPTANCE_DESPITE_WORDING))
      .filter(({ id }) => controlsOf(id).length === 0 && !(id in PREREQUISITES))
      .map(({ id, file }) => `${file}: ${id}`);
    expect(missing).toEqual([]);
  });

  test('a check that makes its own control request is listed, and asserts the control before the refusal', () => {
    for (const { id, body } of literalCheckBodies()) {
      const control = body.search(/expectSetupAccepted\(|expectControlTokenIssued\(/);
      if (control < 0) continue;
      expect(OWN_CONTROL_REQUEST.has(id as RequirementId) || id in PREREQUISITES, `${id} sends a control request of its own`).toBe(true);
      const refusal = body.search(REFUSAL_ASSERTION);
      if (refusal >= 0 && OWN_CONTROL_REQUEST.has(id as RequirementId)) expect(control, `${id} asserts its control first`).toBeLessThan(refusal);
    }
    for (const id of OWN_CONTROL_REQUEST) expect(controlsOf(id).length, `${id} also names its catalogue control`).toBeGreaterThan(0);
  });

  test('a control needs no more of the profile than its refusal check, except where no accepted form exists', () => {
    const wider: string[] = [];
    for (const req of requirements) {
      const controls = controlsOf(req.id);
      // A list (the JWT listener's algorithms) holds over the controls that ran: one per algorithm listed.
      if (controls.length !== 1) continue;
      const extra = requirement(controls[0]!).needs.filter((need) => !req.needs.includes(need));
      if (extra.length > 0 && !(req.id in WIDER_CONTROL)) wider.push(`${req.id} → ${controls[0]} needs ${extra.join(', ')}`);
    }
    expect(wider).toEqual([]);
  });
});
