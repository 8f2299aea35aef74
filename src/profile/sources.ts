/**
 * Reading the values a profile points at: environment variables and files (relative to the profile).
 * Problems are collected, not thrown, so one run reports every missing variable or file at once.
 */
import { isAbsolute, resolve } from 'node:path';
import { FileRefused, readBoundedFile } from './read-file.js';

export interface Missing {
  /** Dotted profile path of the field that points at it. */
  field: string;
  /** Variable name or the resolved file path. */
  what: string;
  /** Why the file could not be read (ENOENT, EACCES, EISDIR...). */
  why?: string;
}

export class SourceReader {
  readonly missingSecrets: Missing[] = [];
  readonly missingFiles: Missing[] = [];

  constructor(
    private readonly baseDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** A variable's value, or undefined (recorded) when unset or empty. */
  fromEnv(name: string, field: string): string | undefined {
    const value = this.env[name];
    if (value === undefined || value === '') {
      this.missingSecrets.push({ field, what: name, why: value === '' ? 'is empty' : 'is not set' });
      return undefined;
    }
    return value;
  }

  /** A file's text, or undefined (recorded) when it cannot be read. */
  async fromFile(path: string, field: string): Promise<string | undefined> {
    const full = this.resolvePath(path);
    try {
      return await readBoundedFile(full);
    } catch (error) {
      const code = error instanceof FileRefused ? error.message : (error as NodeJS.ErrnoException).code ?? 'unreadable';
      this.missingFiles.push({ field, what: full, why: code });
      return undefined;
    }
  }

  /** Relative paths are relative to the profile's directory, not to the working directory. */
  resolvePath(path: string): string {
    return isAbsolute(path) ? path : resolve(this.baseDir, path);
  }
}

/**
 * A JSON.parse error's location as `line L, column C` when the engine's message gives one. Only the location
 * is ever shown: engines quote the text around the error, and a profile or key file may hold secrets.
 */
export function jsonErrorLocation(text: string, error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`;
  if (/end of JSON/i.test(message)) return 'the end of the file (something is not closed)';
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  const offset = Number(position[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
