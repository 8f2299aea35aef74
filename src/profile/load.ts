/** Reading a profile file and resolving it (see resolve.ts). */
import { dirname, resolve } from 'node:path';
import { HarnessError } from '../errors.js';
import { FileRefused, readBoundedFile } from './read-file.js';
import { resolveProfile } from './resolve.js';
import { jsonErrorLocation } from './sources.js';
import type { ResolvedProfile } from './types.js';

export async function loadProfile(path: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<ResolvedProfile> {
  const full = resolve(path);
  let text: string;
  try {
    text = await readBoundedFile(full);
  } catch (error) {
    if (error instanceof FileRefused && error.code !== 'EISDIR') {
      throw new HarnessError('PROFILE_UNREADABLE', `The target profile ${full} cannot be read: ${error.message}.`, {
        hint: 'Give the path of the profile\'s JSON file (a regular file of at most a few MB).',
      });
    }
    const code = error instanceof FileRefused ? error.code : (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new HarnessError('PROFILE_NOT_FOUND', `No target profile at ${full}.`, {
        hint: 'Check the path given to --profile (relative paths start from the current directory).',
        cause: error,
      });
    }
    throw new HarnessError('PROFILE_UNREADABLE', `The target profile ${full} cannot be read (${code ?? 'unknown error'}).`, {
      hint: code === 'EISDIR' ? 'Give the path of the JSON file, not of its directory.' : 'Check the file permissions.',
      cause: error,
    });
  }
  let raw: unknown;
  try {
    // A UTF-8 byte-order mark (some Windows editors add one) is not JSON; drop it rather than fail.
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const at = jsonErrorLocation(text, error);
    throw new HarnessError('PROFILE_UNREADABLE', `The target profile ${full} is not valid JSON${at ? ` (at ${at})` : ''}.`, {
      hint: 'Profiles are plain JSON: no comments and no trailing commas.',
    });
  }
  return resolveProfile(raw, { baseDir: dirname(full), env: options.env, source: full });
}
