/**
 * `run --attest`'s choice of subject (src/cli/commands/run-attest.ts), for each way a run names its target:
 * --subject wins; with --image, the image's ID under the image's name; else the description's digest under
 * the profile's baseUrl; neither a subject nor a description is a usage error. And keyless signing is
 * refused before the run when no OIDC token is at hand.
 */
import { describe, expect, it } from 'vitest';
import { prepareAttestation, withJsonReporter } from '../../src/cli/commands/run-attest.js';
import type { RunPlan } from '../../src/cli/commands/run-options.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { keyPair } from './support.js';

const HEX = 'cd'.repeat(32);
const IMAGE_ID = `sha256:${'ef'.repeat(32)}`;
const { privatePem } = await keyPair('ed25519');

function plan(extra: Partial<RunPlan>): RunPlan {
  return {
    attest: true,
    signingKey: '{"env": "AC_KEY"}',
    target: { kind: 'embedded', faults: [] },
    fulcioUrl: 'https://fulcio.sigstore.dev',
    rekorUrl: 'https://rekor.sigstore.dev',
    client: { timeoutMs: 10_000 },
    ...extra,
  } as RunPlan;
}

const profile = (openapi?: string) => ({ baseUrl: 'https://impl.example', ...(openapi ? { openapi } : {}) }) as ResolvedProfile;
const env = { AC_KEY: privatePem };

describe('run --attest: the subject', () => {
  it('is --subject when given, even with --image (a registry digest names the build, not the local ID)', async () => {
    const prepared = await prepareAttestation(plan({ subject: { name: 'ghcr.io/acme/svc', digest: { sha256: HEX } }, target: { kind: 'image', image: 'svc:1', env: {}, network: 'auto', startupTimeoutMs: 1, keepContainer: false } }), env);
    expect(prepared!.subjectFor(profile(), IMAGE_ID)).toEqual({ from: 'subject', name: 'ghcr.io/acme/svc', sha256: HEX });
  });

  it('is the image\'s ID under its name with --image', async () => {
    const prepared = await prepareAttestation(plan({ target: { kind: 'image', image: 'svc:1', env: {}, network: 'auto', startupTimeoutMs: 1, keepContainer: false } }), env);
    expect(prepared!.subjectFor(profile(), IMAGE_ID)).toEqual({ from: 'image', name: 'svc:1', sha256: 'ef'.repeat(32) });
  });

  it('is the description under the profile\'s baseUrl otherwise, and a usage error without a description', async () => {
    const prepared = await prepareAttestation(plan({}), env);
    expect(prepared!.subjectFor(profile('https://impl.example/openapi.json'), undefined)).toEqual({ from: 'description', name: 'https://impl.example' });
    expect(() => prepared!.subjectFor(profile(), undefined)).toThrow(/--attest has no subject: give --subject NAME@sha256:HEX/);
  });

  it('nothing without --attest; keyless without a token is refused before the run', async () => {
    expect(await prepareAttestation(plan({ attest: false }), env)).toBeUndefined();
    await expect(prepareAttestation(plan({ signingKey: undefined }), {})).rejects.toThrow(/signs keyless, which needs an OIDC identity token/);
    const keyless = await prepareAttestation(plan({ signingKey: undefined }), { SIGSTORE_ID_TOKEN: 'a.b.c' });
    expect(keyless!.signing).toEqual({ kind: 'keyless', fulcioUrl: 'https://fulcio.sigstore.dev', rekorUrl: 'https://rekor.sigstore.dev', timeoutMs: 10_000 });
  });

  it('always writes report.json, which the attestation binds', () => {
    expect(withJsonReporter(['junit'], true)).toEqual(['junit', 'json']);
    expect(withJsonReporter(['json'], true)).toEqual(['json']);
    expect(withJsonReporter([], false)).toEqual([]);
  });
});
