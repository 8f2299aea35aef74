/**
 * A path template and the path it resolves to (ruling 35): the path is the template with each parameter
 * percent-encoded as one segment, and it must keep the template's shape. A template or a value that would
 * resolve elsewhere (dot segments, an encoded `/` or `.`, `?`, `#`, `@`, an absolute URL, `//`, a backslash)
 * is refused with the reason, never "repaired": a description's `/api/v1/search/../apps` is not a search.
 * The planner and the client's firewall (src/client/firewall.ts) both decide with these functions.
 */

/** The characters a literal template segment may hold as written: RFC 3986 pchar without `@`, `%`. */
const LITERAL_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;
/** A `{name}` parameter inside a segment. */
const PARAMETER = /\{([^{}/]*)\}/g;

/** Why the template cannot be called as written (ruling 35), or undefined when its shape is a plain path. */
export function templateShapeProblem(template: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(template)) return 'its path is an absolute URL, not a path on the target';
  if (template.startsWith('//')) return 'its path starts with "//" (another host)';
  if (!template.startsWith('/')) return 'its path does not start with "/"';
  if (template.includes('?')) return 'its path holds "?" (a query written into the path)';
  if (template.includes('#')) return 'its path holds "#" (a fragment written into the path)';
  if (template.includes('@')) return 'its path holds "@" (a user name before a host, once joined to the base URL)';
  if (template.includes('\\')) return 'its path holds a backslash (read as "/" by URL parsers)';
  if (/%/.test(template)) return `its path holds a percent-encoded byte (${/%[0-9A-Fa-f]{2}/.exec(template)?.[0] ?? '%'}): an encoded "/" or "." resolves elsewhere than it reads`;
  const segments = template.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment === '' && index < segments.length - 1) return 'its path holds an empty segment ("//")';
    if (segment === '.' || segment === '..') return `its path holds a dot segment ("${segment}"), which resolves to another path`;
    const literal = segment.replace(PARAMETER, '');
    if (/[{}]/.test(literal)) return `its path has an unbalanced "{" or "}" in segment ${JSON.stringify(segment)}`;
    if (literal !== '' && !LITERAL_SEGMENT.test(literal)) return `its path segment ${JSON.stringify(segment)} holds a character a path cannot carry as written`;
  }
  for (const match of template.matchAll(PARAMETER)) {
    if (match[1] === '') return 'its path has an empty parameter "{}"';
  }
  return undefined;
}

/** `/api/v1/apps/{app_id}/entitlements` → `['app_id']`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(PARAMETER)].map((match) => match[1] as string);
}

/** One parameter value as one segment: every byte that could end or escape a segment encoded. */
export function encodeSegment(value: string): string {
  // encodeURIComponent leaves `!'()*` and `.`: harmless inside a segment; a whole `.`/`..` is refused below.
  return encodeURIComponent(value);
}

export type FilledPath = { path: string } | { problem: string };

/**
 * The path actually sent: the template with each `{name}` replaced by its value encoded as one segment.
 * Refused when the template's shape is not a plain path, a value is missing, empty, `.` or `..`, holds a
 * `/`, `\`, `%` or a control character, or the result would be read by a URL parser as another path (belt
 * and braces: it is parsed and compared).
 */
export function fillPath(template: string, params: Readonly<Record<string, string>>): FilledPath {
  const shape = templateShapeProblem(template);
  if (shape !== undefined) return { problem: shape };
  let problem: string | undefined;
  const path = template.replace(PARAMETER, (_, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined || value === '') problem ??= `its path parameter {${name}} has no value`;
    else if (value === '.' || value === '..') problem ??= `its path parameter {${name}} is "${value}", a dot segment that resolves to another path`;
    // Encoded, these stay one segment for the harness, but a server or proxy that decodes %2F, %5C or %25
    // before routing reads another path (`..%2Fapps` → `../apps`): refused, as ruling 35 refuses an encoded `/`.
    else if (/[/\\%]|[\u0000-\u001f\u007f]/.test(value)) problem ??= `its path parameter {${name}} holds "/", "\\", "%" or a control character, which a server that decodes the path reads as another path`;
    return encodeSegment(value ?? '');
  });
  if (problem !== undefined) return { problem };
  const parsed = new URL(path, 'http://path.invalid');
  if (parsed.host !== 'path.invalid' || parsed.pathname !== path || parsed.search !== '' || parsed.hash !== '') {
    return { problem: `its path ${JSON.stringify(path)} resolves to ${JSON.stringify(parsed.pathname)}, another shape` };
  }
  return { path };
}
