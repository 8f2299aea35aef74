/**
 * No synchronous key generation anywhere in the project's code: on Node 20 a synchronous key-generation
 * job freed by the garbage collector while its key is exported as a JWK deadlocks the main thread
 * (src/crypto/ed25519.ts). Ed25519 keys come from newEd25519Jwk(), others from the promisified
 * generateKeyPair. The one exception is the bench child that shows the stall watchdog catching it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../../src/package.js';

const FOLDERS = ['src', 'suites', 'tests', 'bench', 'scripts', 'fixtures'];
const ALLOWED = new Set(['bench/key-export-child.ts', 'tests/architecture/no-sync-keygen.test.ts']);
const SYNC_KEYGEN = /\bgenerateKey(?:Pair)?Sync\s*\(/;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(?:ts|js|mjs|cjs)$/.test(name)) yield path;
  }
}

test('no generateKeyPairSync or generateKeySync call outside the bench that demonstrates the deadlock', () => {
  const root = packageRoot();
  const offenders: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(join(root, folder))) {
      const name = relative(root, file);
      if (!ALLOWED.has(name) && SYNC_KEYGEN.test(readFileSync(file, 'utf8'))) offenders.push(name);
    }
  }
  expect(offenders).toEqual([]);
});
