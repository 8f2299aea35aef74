/**
 * The containers module, loaded on demand. testcontainers is an optional peer dependency (it pulls ssh2 and a
 * native build that most users, who never pass --image, do not need), so it may be absent: this file must
 * not import it, and turns its absence into a harness error that names the package and how to add it.
 */
import { HarnessError } from '../errors.js';

type ContainersModule = typeof import('./index.js');

/** Imports src/containers (and so testcontainers); DEPENDENCY_MISSING when a package it needs is not installed. */
export async function loadContainers(feature = '--image'): Promise<ContainersModule> {
  try {
    return await import('./index.js');
  } catch (error) {
    const missing = missingPackage(error);
    if (missing === undefined) throw error;
    const what = missing === 'testcontainers' ? 'the optional dependency testcontainers' : `${missing}, a dependency of testcontainers,`;
    throw new HarnessError('DEPENDENCY_MISSING', `${feature} needs ${what} which is not installed`, {
      hint: 'install it next to access-conformance (npm install testcontainers@11; beside a global install: npm install -g testcontainers@11); runs without --image do not need it',
    });
  }
}

/** The package named by Node's "Cannot find package 'x'" (ERR_MODULE_NOT_FOUND), if that is the error. */
export function missingPackage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string') return undefined;
  return /Cannot find package '([^']+)'/.exec(message)?.[1];
}
