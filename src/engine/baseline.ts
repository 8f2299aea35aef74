/**
 * --baseline FILE: the failures a team already knows about. Accepted shapes:
 *   ["WH-HMAC-07", "PAG-12"]                       a list of IDs
 *   {"expectedFailures": ["WH-HMAC-07"]}           the same, with room for comments in other keys
 *   a previous `--reporter json` report            its failed checks become the baseline
 */
import { readFile } from 'node:fs/promises';
import { HarnessError } from '../errors.js';

export interface Baseline {
  source: string;
  ids: string[];
}

function invalid(path: string, why: string): HarnessError {
  return new HarnessError('BASELINE_INVALID', `baseline ${path} ${why}`, {
    field: '--baseline',
    hint: 'give a JSON list of requirement IDs, {"expectedFailures": [...]}, or a json report from a previous run',
  });
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function parseBaseline(text: string, path: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(path, `is not JSON: ${(error as Error).message}`);
  }
  if (stringList(data)) return { source: path, ids: [...new Set(data)] };
  if (typeof data === 'object' && data !== null) {
    const record = data as Record<string, unknown>;
    if (stringList(record.expectedFailures)) return { source: path, ids: [...new Set(record.expectedFailures)] };
    if (Array.isArray(record.results)) {
      const ids = record.results
        .filter((r): r is { id: string; state: string } => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string')
        .filter((r) => r.state === 'failed')
        .map((r) => r.id);
      return { source: path, ids: [...new Set(ids)] };
    }
  }
  throw invalid(path, 'has none of the accepted shapes');
}

export async function loadBaseline(path: string): Promise<Baseline> {
  return parseBaseline(await readNamedFile(path, (why) => invalid(path, why)), path);
}

/** Reads a file the user named (a baseline, a report); a missing or unreadable one is `invalid(why)`. */
export async function readNamedFile(path: string, invalid: (why: string) => Error): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw invalid(code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`);
  }
}
