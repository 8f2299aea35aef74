/**
 * `DEBUG=access-conformance`: the one switch for the timelines and stacks the CLI and the engine print on
 * stderr. No imports, so any room can use it.
 */

export const DEBUG_ENABLED = process.env.DEBUG?.includes('access-conformance') ?? false;

/** A timestamped line on stderr, `[room hh:mm:ss.mmm] line`, when DEBUG names access-conformance. */
export function debugLine(room: string, line: string): void {
  if (DEBUG_ENABLED) process.stderr.write(`[${room} ${new Date().toISOString().slice(11, 23)}] ${line}\n`);
}
