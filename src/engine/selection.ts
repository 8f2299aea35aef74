/**
 * --only / --skip: IDs and globs, comma-separated or repeated, resolved against the catalogue. An exact ID
 * the catalogue does not know is a usage error with near matches, and so is a glob that matches no
 * requirement of the catalogue (a typo must not silently check everything, or nothing). A --skip glob that
 * matches requirements outside --only is fine; a selection that ends up empty is an error too.
 */
import { HarnessError } from '../errors.js';
import { editDistance } from '../spelling.js';
import { allRequirements, type Requirement } from '../requirements/catalogue.js';
import { splitOperationKey } from '../openapi/operation.js';
import type { SelectionInput } from './types.js';
import { literalAlternation } from './name-pattern.js';

const GLOB_CHARS = /[*?]/;

/** Splits repeated and comma-separated flag values into trimmed, non-empty patterns. */
export function splitPatterns(values: ReadonlyArray<string | number> | string | undefined): string[] {
  if (values === undefined) return [];
  const list = Array.isArray(values) ? values : [values];
  return list
    .flatMap((value) => String(value).split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/** Up to five catalogue IDs close to an unknown one: same prefix first, then by edit distance. */
export function nearMatches(unknown: string, ids: readonly string[], limit = 5): string[] {
  const upper = unknown.toUpperCase();
  const prefix = upper.replace(/-?\d+$/, '');
  return ids
    .map((id) => ({ id, score: editDistance(upper, id) - (prefix.length > 0 && id.startsWith(prefix) ? 2 : 0) }))
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((entry) => entry.id);
}

function matcher(full: string, flag: string, ids: readonly string[], perOperationIds: readonly string[]): (id: string) => boolean {
  // `ID@METHOD path` names operations of a per-operation requirement (ruling 34): the ID part selects here.
  const [pattern, operation] = splitOperationKey(full);
  if (operation !== undefined) {
    const re = globToRegExp(pattern === '' ? '*' : pattern);
    if (!perOperationIds.some((id) => re.test(id))) {
      throw new HarnessError('USAGE', `${flag} ${full} names operations, but ${pattern || '*'} matches no requirement checked per operation`, {
        field: flag,
        hint: 'per-operation requirements are OPS-*: e.g. --only \'OPS-04@POST /api/v1/search/apps\' or --skip \'OPS-*@GET /api/v1/apps\'',
      });
    }
    return (id) => perOperationIds.includes(id) && re.test(id);
  }
  if (GLOB_CHARS.test(pattern)) {
    const re = globToRegExp(pattern);
    if (!ids.some((id) => re.test(id))) {
      throw new HarnessError('USAGE', `${flag} ${pattern} matches no requirement of the catalogue`, {
        field: flag,
        hint: 'run `access-conformance list` for every ID; globs use * and ? (e.g. WH-HMAC-*)',
      });
    }
    return (id) => re.test(id);
  }
  const exact = ids.find((id) => id.toUpperCase() === pattern.toUpperCase());
  if (exact === undefined) {
    const near = nearMatches(pattern, ids);
    throw new HarnessError('USAGE', `${flag} names an unknown requirement ID "${pattern}"; near matches: ${near.join(', ')}`, {
      field: flag,
      hint: 'run `access-conformance list` for every ID, or use a glob such as WH-HMAC-*',
    });
  }
  return (id) => id === exact;
}

export interface ResolvedSelection {
  /** Selected requirements, catalogue order. */
  requirements: Requirement[];
  input: SelectionInput;
}

/** Applies --only then --skip to the catalogue. Throws USAGE on an unknown exact ID, NOTHING_SELECTED when empty. */
export function resolveSelection(input: SelectionInput, catalogue: Requirement[] = allRequirements()): ResolvedSelection {
  const ids = catalogue.map((req) => req.id as string);
  const perOperationIds = catalogue.filter((req) => req.perOperation !== undefined).map((req) => req.id as string);
  const only = input.only.map((pattern) => matcher(pattern, '--only', ids, perOperationIds));
  // `--skip 'ID@op'` leaves the requirement in: only those operations' results go (operationSelector).
  const skip = input.skip.filter((pattern) => splitOperationKey(pattern)[1] === undefined).map((pattern) => matcher(pattern, '--skip', ids, perOperationIds));
  for (const pattern of input.skip) if (splitOperationKey(pattern)[1] !== undefined) matcher(pattern, '--skip', ids, perOperationIds);
  const requirements = catalogue.filter(
    (req) => (only.length === 0 || only.some((match) => match(req.id))) && !skip.some((match) => match(req.id)),
  );
  if (requirements.length === 0) {
    const why = only.length > 0 && catalogue.every((req) => !only.some((match) => match(req.id)))
      ? `--only ${input.only.join(',')} matches no requirement`
      : catalogue.length === 0
        ? 'the catalogue is empty'
        : `--skip ${input.skip.join(',')} removes every selected requirement`;
    throw new HarnessError('NOTHING_SELECTED', `nothing was checked: ${why}`, {
      hint: 'run `access-conformance list` to see the IDs; globs use * and ?',
    });
  }
  return { requirements, input };
}

/**
 * Which operations of a selected per-operation requirement the run checks: `--only ID@op` keeps those
 * operations (unless a plain `--only` pattern selects the whole requirement), `--skip ID@op` drops them.
 * `op` is a glob matched, case-insensitively, against `METHOD path`, the path alone and the operation ID:
 * `'OPS-04@POST /api/v1/search/apps'`, `'OPS-*@GET *'`, `'*@c1.api.app.v1.AppSearch.Search'`.
 */
export function operationSelector(input: SelectionInput): (id: string, operation: { method: string; path: string; operationId?: string }) => boolean {
  const parse = (patterns: readonly string[]) => patterns.map((full) => {
    const [id, op] = splitOperationKey(full);
    return { id: globToRegExp(id === '' ? '*' : id), op: op === undefined ? undefined : globToRegExp(op.trim()) };
  });
  const only = parse(input.only);
  const skip = parse(input.skip).filter((pattern) => pattern.op !== undefined);
  const matchesOp = (re: RegExp, operation: { method: string; path: string; operationId?: string }): boolean =>
    re.test(`${operation.method.toUpperCase()} ${operation.path}`) || re.test(operation.path) || (operation.operationId !== undefined && re.test(operation.operationId));
  return (id, operation) => {
    const kept = only.length === 0 || only.some((p) => p.id.test(id) && (p.op === undefined || matchesOp(p.op, operation)));
    return kept && !skip.some((p) => p.id.test(id) && matchesOp(p.op!, operation));
  };
}


/**
 * vitest's testNamePattern for a set of IDs. Test titles are `<ID> <text>`; vitest matches the full name
 * (describe titles first, joined by spaces), so the ID is anchored on the start or a space before it and a
 * space after it: WH-HMAC-1 never selects WH-HMAC-10.
 */
export function testNamePattern(ids: readonly string[]): RegExp {
  return new RegExp(`(?:^| )(?:${literalAlternation(ids)}) `);
}

/** The ID at the start of a test title (`ID@METHOD path` for one operation's check), or undefined. */
export function idFromTitle(title: string, known: ReadonlySet<string>): string | undefined {
  const [first = '', second = ''] = title.split(' ', 2);
  if (first.includes('@')) {
    const key = `${first} ${second}`;
    return known.has(key) ? key : undefined;
  }
  return known.has(first) ? first : undefined;
}
