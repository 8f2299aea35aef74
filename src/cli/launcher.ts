/**
 * How the harness was started, as the words a printed command begins with (the rerun and reproduce lines),
 * so the line runs when pasted where the run was started:
 * - through npx / npm exec / an npm script (npm sets `npm_command`): `npx access-conformance` (npx finds the
 *   local install);
 * - installed globally or otherwise on PATH (the name on PATH is this very script): `access-conformance`;
 * - from a node_modules/.bin that is not on PATH: `npx access-conformance`;
 * - anything else (a clone: `node bin/access-conformance.js`): `node <the script, relative to the working
 *   directory when it is below it, else absolute>`.
 */
import { realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative } from 'node:path';

const BIN_NAME = 'access-conformance';

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export interface LauncherInput {
  /** process.argv[1]: the script node was given (a symlink on PATH stays the symlink). */
  script: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function launcherWords({ script, env, cwd }: LauncherInput): string[] {
  // npm puts node_modules/.bin on the PATH of what it starts, not on the user's: npx first.
  if (env.npm_command !== undefined) return ['npx', BIN_NAME];
  const self = real(script);
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && isAbsolute(dir))
    .some((dir) => self !== undefined && real(join(dir, BIN_NAME)) === self);
  if (onPath) return [BIN_NAME];
  if (basename(dirname(script)) === '.bin' && basename(dirname(dirname(script))) === 'node_modules') return ['npx', BIN_NAME];
  const below = relative(cwd, script);
  return ['node', below !== '' && !below.startsWith('..') && !isAbsolute(below) ? below : script];
}

/** The launcher of this process. */
export function currentLauncher(): string[] {
  return launcherWords({ script: process.argv[1] ?? BIN_NAME, env: process.env, cwd: process.cwd() });
}
