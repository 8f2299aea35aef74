/**
 * One home for an operation's identity (ruling 34): its reference (method, path template, operation ID),
 * its key in a run (`ID@METHOD path`, what a per-operation result, a test title and `--only` name) and how a
 * report labels it. The engine, the suites, the client's firewall and the reporters all build them here.
 */

/** Names one operation; each per-operation JSON result carries it as `operation`. */
export interface OperationRef {
  /** Upper case: `GET`, `POST`. */
  method: string;
  /** The description's path template, e.g. `/api/v1/apps/{app_id}/entitlements`. */
  path: string;
  operationId?: string;
  /**
   * The path actually sent (ruling 35): the template with its parameters filled, each percent-encoded as
   * one segment (after the path of the profile's `baseUrl`, when it has one); set on a planned operation's
   * results. Not part of the key: the template names the operation.
   */
  sentPath?: string;
}

/** The reference of anything that names an operation (a described or planned operation, a profile entry). */
export function operationRef(op: { method: string; path: string; operationId?: string | undefined; sentPath?: string | undefined }): OperationRef {
  return { method: op.method.toUpperCase(), path: op.path, ...(op.operationId ? { operationId: op.operationId } : {}), ...(op.sentPath ? { sentPath: op.sentPath } : {}) };
}

/** `METHOD path`: the operation's identity within one description (two operations never share it). */
export function operationName(op: { method: string; path: string }): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

/** `OPS-04@POST /api/v1/search/apps`: one operation's result of a per-operation requirement. */
export function operationKey(id: string, op: { method: string; path: string }): string {
  return `${id}@${operationName(op)}`;
}

/** `[ID, "METHOD path"]` of a key, or `[key, undefined]` for a plain requirement ID. */
export function splitOperationKey(key: string): [string, string | undefined] {
  const at = key.indexOf('@');
  return at < 0 ? [key, undefined] : [key.slice(0, at), key.slice(at + 1)];
}

/**
 * How a report names an operation: `POST /api/v1/search/apps (c1.api.app.v1.AppSearch.Search)`, and the path
 * sent when it differs from the template (`GET /api/v1/apps/{app_id}/entitlements, sent as /api/v1/apps/A1/entitlements`).
 */
export function operationLabel(op: OperationRef): string {
  return `${operationTitle(op)}${op.sentPath && op.sentPath !== op.path ? `, sent as ${op.sentPath}` : ''}`;
}

/** `POST /api/v1/search/apps (c1.api.app.v1.AppSearch.Search)`: the operation by its template and ID. */
export function operationTitle(op: { method: string; path: string; operationId?: string }): string {
  return `${operationName(op)}${op.operationId ? ` (${op.operationId})` : ''}`;
}

/** The line a report prints under an operation's result: the path actually sent. */
export function sentPathLine(op: OperationRef): string {
  return `sent: ${op.method.toUpperCase()} ${op.sentPath ?? op.path}`;
}
