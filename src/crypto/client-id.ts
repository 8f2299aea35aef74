/**
 * Client ID `<random-id>@<hostname>/<use-case>` (service.md §2.1, §5.2; ruling 2).
 */
import { valueErrorClass } from '../errors.js';

export interface ParsedClientId {
  randomId: string;
  hostname: string;
  useCase: string;
  /** `https://<hostname>/auth/v1/token` */
  tokenEndpoint: string;
  /** `https://<hostname>/api/v1` */
  apiRoot: string;
}

export type ClientIdReason =
  | 'empty'
  | 'whitespace'
  | 'missing-at'
  | 'multiple-at'
  | 'empty-random-id'
  | 'missing-slash'
  | 'empty-hostname'
  | 'hostname-has-port'
  | 'invalid-hostname'
  | 'empty-use-case';

/** A Client ID that cannot be parsed; `reason` says which rule it breaks. */
export const ClientIdError = valueErrorClass<ClientIdReason>(
  'CLIENT_ID_INVALID',
  'A Client ID looks like <random-id>@<hostname>/<use-case>, e.g. brave-otter-4821@acme.example.com/conformance.',
);
export type ClientIdError = InstanceType<typeof ClientIdError>;

// DNS labels (letters, digits, inner hyphens) joined by dots; also matches dotted IPv4 addresses.
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/** A DNS name or dotted IPv4 address: no scheme, port or path (the form of a tenant domain). */
export function isHostname(text: string): boolean {
  return HOSTNAME.test(text);
}

export function parseClientId(id: string, options: { field?: string } = {}): ParsedClientId {
  const fail = (reason: ClientIdReason, message: string): never => {
    throw new ClientIdError(reason, `Client ID ${message}`, options.field);
  };
  if (id.length === 0) fail('empty', 'is empty');
  // Whitespace (often a trailing newline from a file or a copy-paste) would end up in every URL.
  if (/[\s\u0000-\u001f\u007f]/.test(id)) fail('whitespace', 'contains whitespace or control characters');
  const at = id.indexOf('@');
  if (at < 0) fail('missing-at', 'has no "@" between the random ID and the hostname');
  if (id.indexOf('@', at + 1) >= 0) fail('multiple-at', 'has more than one "@"');
  const randomId = id.slice(0, at);
  if (randomId.length === 0) fail('empty-random-id', 'has nothing before "@"');
  const rest = id.slice(at + 1);
  const slash = rest.indexOf('/');
  if (slash < 0) fail('missing-slash', 'has no "/" after the hostname (the use-case part is missing)');
  const hostname = rest.slice(0, slash);
  const useCase = rest.slice(slash + 1);
  if (hostname.length === 0) fail('empty-hostname', 'has no hostname between "@" and "/"');
  // Ruling 3: the hostname is the assertion audience "without scheme or port", so a port is a mistake.
  if (hostname.includes(':')) fail('hostname-has-port', 'has a port or scheme in its hostname part');
  if (!HOSTNAME.test(hostname)) fail('invalid-hostname', 'has a hostname part that is not a valid DNS name');
  if (useCase.length === 0) fail('empty-use-case', 'has nothing after "/" (the use case)');
  return {
    randomId,
    hostname,
    useCase,
    tokenEndpoint: `https://${hostname}/auth/v1/token`,
    apiRoot: `https://${hostname}/api/v1`,
  };
}
