/**
 * Signing the statement into a Sigstore bundle v0.3 holding a DSSE envelope (payload type
 * application/vnd.in-toto+json), the form cosign, GitHub's artifact attestations and SLSA verifiers read.
 *
 * - keyed: @sigstore/sign's DSSE bundle builder with a signer over the PEM key (node:crypto), no witness:
 *   the bundle names the key by its hint and carries no certificate, log entry or timestamp (like
 *   `cosign attest-blob --key --tlog-upload=false`); `verify --key` checks it.
 * - keyless: sigstore's `attest`: an ephemeral key, a Fulcio certificate for the CI's OIDC identity (the
 *   GitHub Actions token, or SIGSTORE_ID_TOKEN), the signature logged in Rekor; `verify
 *   --certificate-identity --certificate-oidc-issuer` checks it against Sigstore's trusted root.
 * Both libraries make their own HTTP requests (keyless only); nothing here talks to the target.
 */
import { sign as cryptoSign, type KeyObject } from 'node:crypto';
import { bundleToJSON, type SerializedBundle } from '@sigstore/bundle';
import { DSSEBundleBuilder, type Signature, type Signer } from '@sigstore/sign';
import { HarnessError } from '../errors.js';
import { keyHint, publicKeyPem, signatureHash } from './keys.js';
import { IN_TOTO_PAYLOAD_TYPE } from './statement.js';

export type { SerializedBundle };

export type SigningPlan =
  | { kind: 'key'; key: KeyObject }
  | {
      kind: 'keyless';
      fulcioUrl: string;
      rekorUrl: string;
      /** An OIDC token given directly; otherwise the CI's (GitHub Actions' OIDC endpoint, or SIGSTORE_ID_TOKEN). */
      identityToken?: string;
      timeoutMs: number;
    };

/** A Sigstore signer over a local key: the signature, with the public key it verifies under. */
class KeySigner implements Signer {
  constructor(private readonly key: KeyObject) {}

  async sign(data: Buffer): Promise<Signature> {
    return {
      signature: cryptoSign(signatureHash(this.key), data, this.key),
      key: { $case: 'publicKey', publicKey: publicKeyPem(this.key), hint: keyHint(this.key) },
    };
  }
}

/** The statement's bytes as signed: the DSSE payload. */
export function statementPayload(statement: unknown): Buffer {
  return Buffer.from(JSON.stringify(statement), 'utf8');
}

export async function signPayload(payload: Buffer, plan: SigningPlan): Promise<SerializedBundle> {
  if (plan.kind === 'key') {
    const bundle = await new DSSEBundleBuilder({ signer: new KeySigner(plan.key), witnesses: [] }).create({ data: payload, type: IN_TOTO_PAYLOAD_TYPE });
    return bundleToJSON(bundle);
  }
  try {
    // Loaded for keyless signing only: with TUF and its HTTP client it is the heaviest of the libraries.
    const { attest: sigstoreAttest } = await import('sigstore');
    return await sigstoreAttest(payload, IN_TOTO_PAYLOAD_TYPE, {
      fulcioURL: plan.fulcioUrl,
      rekorURL: plan.rekorUrl,
      ...(plan.identityToken === undefined ? {} : { identityToken: plan.identityToken }),
      timeout: plan.timeoutMs,
      retry: 2,
    });
  } catch (error) {
    throw keylessError(error, plan);
  }
}

/** What went wrong in keyless signing, said so a CI log tells what to fix; never a token. */
function keylessError(error: unknown, plan: Extract<SigningPlan, { kind: 'keyless' }>): HarnessError {
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.replace(/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]').slice(0, 400);
  if (/no tokens available/i.test(raw)) {
    return new HarnessError('ATTEST_FAILED', 'keyless signing needs an OIDC identity token, and none was found', {
      field: '--attest',
      hint: 'in GitHub Actions give the job `permissions: id-token: write`; elsewhere set SIGSTORE_ID_TOKEN, or sign with --signing-key FILE',
    });
  }
  return new HarnessError('ATTEST_FAILED', `keyless signing failed (Fulcio ${plan.fulcioUrl}, Rekor ${plan.rekorUrl}): ${message}`, {
    field: '--attest',
    hint: 'the reports are written; rerun when Sigstore answers, or sign with --signing-key FILE',
    cause: error,
  });
}
