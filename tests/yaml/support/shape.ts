/** Small shape checks the YAML validators share: each problem is a line naming its path in the document. */

export type Problems = string[];
export type Mapping = Record<string, unknown>;

export function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The mapping at `path`, or undefined with a problem when it is something else. */
export function mappingAt(problems: Problems, path: string, value: unknown): Mapping | undefined {
  if (isMapping(value)) return value;
  problems.push(`${path}: must be a mapping, got ${describe(value)}`);
  return undefined;
}

export function onlyKeys(problems: Problems, path: string, value: Mapping, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) problems.push(`${path}.${key}: not a key here (allowed: ${allowed.join(', ')})`);
  }
}

export function requireString(problems: Problems, path: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '') problems.push(`${path}: required, a non-empty string; got ${describe(value)}`);
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null (an empty value)';
  if (Array.isArray(value)) return 'a sequence';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Every string in a document with its path (`runs.steps[1].env.INPUT_ARGS`). */
export function stringsIn(value: unknown, path = ''): Array<{ path: string; text: string }> {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsIn(item, `${path}[${index}]`));
  if (isMapping(value)) return Object.entries(value).flatMap(([key, item]) => stringsIn(item, path === '' ? key : `${path}.${key}`));
  return [];
}
