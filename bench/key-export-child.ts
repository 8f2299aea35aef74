/**
 * The child of bench/key-export-stall.ts: makes and exports keys in a loop, the way the project does, and
 * prints a line per 1,000 so its parent sees progress. A native deadlock freezes this process's event loop,
 * so it cannot report one itself: the parent's watchdog does.
 *
 * argv: <count> <way>. Ways: `project` (every key path of the project: Client Secrets, the Ed25519 keys of
 * wrong-key checks, asynchronous webhook signing keys, a public x); `sync-job` (the former way,
 * generateKeyPairSync then a JWK export, kept to show the watchdog catches the deadlock).
 */
import { generateKeyPairSync } from 'node:crypto';
import { generateClientSecret } from '../src/crypto/client-secret.js';
import { newEd25519Jwk } from '../src/crypto/ed25519.js';
import { generateSigningKey } from '../src/crypto/signing-keys.js';

const count = Number(process.argv[2] ?? 10_000);
const way = process.argv[3] ?? 'project';

async function oneKey(i: number): Promise<void> {
  if (way === 'sync-job') {
    // The deadlock the project no longer has (src/crypto/ed25519.ts): do not copy.
    generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    return;
  }
  // The mix of a run: mostly Client Secrets and foreign keys, now and then a webhook signing key.
  if (i % 4 === 0) await generateClientSecret('svc.example', { kid: `k${i}` });
  else if (i % 50 === 1) await generateSigningKey(i % 100 === 1 ? 'EdDSA' : 'ES256');
  else newEd25519Jwk();
}

for (let i = 1; i <= count; i += 1) {
  await oneKey(i);
  if (i % 1000 === 0) process.stdout.write(`${i}\n`);
}
process.stdout.write('done\n');
