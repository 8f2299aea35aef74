/** Test-only profile material: keys and secrets are generated per run, never checked in. */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateClientSecret, generateHmacSecret, generateSigningKey, type SigningJwk } from '../../src/crypto/index.js';
import type { HarnessError } from '../../src/errors.js';

export const FIXTURE = new URL('../../fixtures/profiles/valid.target.json', import.meta.url).pathname;

/** A fresh mutable copy of the fixture document (loosely typed on purpose: tests break it in arbitrary ways). */
export function fixtureDoc(): Record<string, any> {
  return JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, any>;
}

export interface Material {
  env: Record<string, string>;
  keys: SigningJwk[];
  /** Every secret value, to assert none leaks into a message. */
  all: string[];
}

export async function material(): Promise<Material> {
  const keys = [await generateSigningKey('ES256', 'es'), await generateSigningKey('EdDSA', 'ed')];
  const env = {
    AC_TEST_CLIENT_SECRET: (await generateClientSecret('svc.example')).secret,
    AC_TEST_IP_CLIENT_SECRET: (await generateClientSecret('svc.example')).secret,
    AC_TEST_HMAC_SECRET: generateHmacSecret(),
    AC_TEST_HOOKS_TOKEN: generateHmacSecret(),
    AC_TEST_JWT_KEYS: JSON.stringify(keys),
  };
  const all = [env.AC_TEST_CLIENT_SECRET, env.AC_TEST_IP_CLIENT_SECRET, env.AC_TEST_HMAC_SECRET, env.AC_TEST_HOOKS_TOKEN];
  for (const key of keys) all.push(key.d as string);
  for (const secret of [env.AC_TEST_CLIENT_SECRET, env.AC_TEST_IP_CLIENT_SECRET]) all.push(secret.split(':')[3] as string);
  return { env, keys, all };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ac-profile-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function writeJson(path: string, value: unknown): Promise<string> {
  await writeFile(path, JSON.stringify(value, null, 2));
  return path;
}

export { harnessError } from '../support/harness-error.js';

/** Fails when any secret value appears anywhere in what the error would print. */
export function expectNoSecrets(error: HarnessError, secrets: string[]): void {
  const text = `${error.message}\n${error.hint ?? ''}\n${error.field ?? ''}\n${error.format()}`;
  for (const secret of secrets) {
    if (text.includes(secret)) throw new Error(`secret leaked into error message: ${error.code}`);
  }
}
