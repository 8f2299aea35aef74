/**
 * `access-conformance verify BUNDLE`: checks an attestation `run --attest` wrote, as a customer would
 * before trusting it: the signature (`--key PUB.pem`, or keyless `--certificate-identity` and
 * `--certificate-oidc-issuer` as `cosign verify-blob-attestation` takes them), the payload (an in-toto
 * Statement v1 with the test-result predicate), the subject (`--subject`), the catalogue version, and with
 * `--report` that report.json is the attested one. Exit 0 valid, 1 invalid (each failed check named), 2 usage.
 */
import { readFile, stat } from 'node:fs/promises';
import { DEFAULT_TIMEOUT_MS } from '../../defaults.js';
import { oneLine } from '../../escape.js';
import { HarnessError } from '../../errors.js';
import { CATALOGUE_VERSION } from '../../requirements/catalogue.js';
import { defineCommand } from '../command.js';
import { choiceRow, textRow, type OptionRow, type OptionValues } from '../option-grammar.js';
import { SHARED_OPTIONS } from '../shared-options.js';
import type { VerifyOutcome } from '../../attest/index.js';

export const VERIFY_OPTIONS = {
  key: textRow({ describe: 'Keyed attestation: the PEM public key of the --signing-key that signed it (or {"env": "NAME"}). e.g. --key signing.pub.pem' }),
  'certificate-identity': textRow({
    describe:
      "Keyless attestation: the identity its certificate must name, with --certificate-oidc-issuer: an e-mail, or a workflow's URI, e.g. https://github.com/OWNER/REPO/.github/workflows/FILE@REF",
  }),
  'certificate-oidc-issuer': textRow({ describe: 'Keyless attestation: the OIDC issuer of that identity. e.g. --certificate-oidc-issuer https://token.actions.githubusercontent.com' }),
  'trusted-root': textRow({ describe: "Keyless attestation: a Sigstore trusted_root.json to verify against (default: Sigstore's public-good instance, fetched through TUF). e.g. --trusted-root trusted_root.json" }),
  subject: SHARED_OPTIONS.subject,
  'catalogue-version': textRow({ describe: `The requirement catalogue version the attestation must name (default: this harness's, ${CATALOGUE_VERSION}). e.g. --catalogue-version 1.3.0` }),
  report: textRow({ describe: 'The report.json published with the attestation: verify checks that it is the attested one (its SHA-256). e.g. --report reports/report.json' }),
  format: choiceRow({ choices: ['text', 'json'], default: 'text', describe: 'text for people, json for scripts (every check with its outcome, and the statement)' }),
} as const satisfies Record<string, OptionRow<unknown>>;

type VerifyOptions = OptionValues<typeof VERIFY_OPTIONS>;

/** A file verify reads: missing or unreadable is a usage error (exit 2), not an invalid attestation. */
async function readInput(path: string, flag: string, maxBytes: number): Promise<Buffer> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) throw new HarnessError('USAGE', `${flag}: there is no file ${path}`, { field: flag });
  if (info.size > maxBytes) throw new HarnessError('USAGE', `${flag}: ${path} has ${info.size} bytes, more than ${maxBytes} (not what run --attest writes)`, { field: flag });
  return readFile(path);
}

const MAX_BUNDLE_BYTES = 8 * 1024 * 1024;
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

function usage(message: string, field: string): HarnessError {
  return new HarnessError('USAGE', message, { field });
}

/** Which signature check the flags ask for: exactly one of a key or an identity with its issuer. */
function checkFlags(options: VerifyOptions): void {
  const keyless = options.certificateIdentity !== undefined || options.certificateOidcIssuer !== undefined || options.trustedRoot !== undefined;
  if (options.key !== undefined && keyless) throw usage('give --key (a keyed attestation) or --certificate-identity with --certificate-oidc-issuer (keyless), not both', '--key');
  if (options.key === undefined && !keyless) throw usage('give --key PUB.pem, or --certificate-identity and --certificate-oidc-issuer, to check the signature with', '--key');
  if (keyless && (options.certificateIdentity === undefined || options.certificateOidcIssuer === undefined)) {
    throw usage('keyless verification needs both --certificate-identity and --certificate-oidc-issuer', options.certificateIdentity === undefined ? '--certificate-identity' : '--certificate-oidc-issuer');
  }
}

const MARK = { true: 'ok  ', false: 'FAIL', undefined: ' -- ' } as const;

export function renderOutcome(outcome: VerifyOutcome, bundle: string): string {
  const lines = [`verify ${bundle}`];
  for (const c of outcome.checks) lines.push(`  ${MARK[String(c.ok) as keyof typeof MARK]} ${c.name.padEnd(15)} ${oneLine(c.detail)}`);
  const predicate = outcome.statement?.predicate;
  if (predicate !== undefined && outcome.valid) {
    const ext = predicate.accessConformance;
    lines.push(
      '',
      `  result ${predicate.result}${partialScope(outcome.statement) ? ` (partial scope: ${oneLine(partialScope(outcome.statement)!)})` : ''}: ${predicate.passedTests.length} passed, ${predicate.warnedTests.length} warned, ${predicate.failedTests.length} failed` +
        (ext ? `, ${ext.skippedTests.length} skipped, ${ext.blockedTests.length} blocked of ${ext.results} results (verdict: ${oneLine(ext.verdict.status)}, exit ${ext.verdict.exitCode})` : ''),
    );
  }
  const failed = outcome.checks.filter((c) => c.ok === false).map((c) => c.name);
  lines.push('', outcome.valid ? validLine(outcome) : `INVALID: ${failed.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The summary of the statement's scope when it leaves operations out (a declared scope that leaves nothing
 * out certifies the whole); read defensively, as everything in a statement someone else signed.
 */
function partialScope(statement: VerifyOutcome['statement']): string | undefined {
  const scope: unknown = statement?.predicate.accessConformance?.scope;
  if (typeof scope !== 'object' || scope === null) return undefined;
  const { summary, notImplemented } = scope as { summary?: unknown; notImplemented?: unknown };
  return Array.isArray(notImplemented) && notImplemented.length > 0 ? String(summary) : undefined;
}

/** The checks a flag turns on: left out, the last line says so, and which flag to give. */
const OPTIONAL_CHECKS = [
  { name: 'subject', flag: '--subject' },
  { name: 'report', flag: '--report' },
] as const;

/**
 * The last line of a valid attestation: what was checked, what was not and the flag that checks it ("signature
 * and report valid (signed by key); subject not checked: give --subject"), and the scope of a partial run,
 * so neither an unchecked subject nor a certificate of a subset reads as the whole.
 */
function validLine(outcome: VerifyOutcome): string {
  const checked = ['signature', ...OPTIONAL_CHECKS.filter((c) => outcome.checks.some((k) => k.name === c.name && k.ok === true)).map((c) => c.name)];
  const unchecked = OPTIONAL_CHECKS.filter((c) => !checked.includes(c.name)).map((c) => `${c.name} not checked: give ${c.flag}`);
  const partial = partialScope(outcome.statement);
  const parts = [
    `${checked.length === 1 ? checked[0] : `${checked.slice(0, -1).join(', ')} and ${checked.at(-1)}`} valid${outcome.signer ? ` (signed by ${oneLine(outcome.signer)})` : ''}`,
    ...unchecked,
    partial
      ? `scope: ${oneLine(partial)}, a certificate of those operations only`
      : // A statement without the harness's extension (another tool's, or hand-made) says nothing of its scope.
        outcome.statement?.predicate.accessConformance === undefined
        ? 'scope: not stated (the statement carries no accessConformance extension)'
        : 'scope: whole (no operation left out)',
  ];
  return parts.join('; ');
}

export const verifyCommand = defineCommand({
  command: 'verify <bundle>',
  describe: 'Check an attestation run --attest wrote: signature, in-toto test-result statement, subject, catalogue version, and the report it binds',
  options: VERIFY_OPTIONS,
  builder: (y) =>
    y
      .positional('bundle', { type: 'string', demandOption: true, describe: 'the attestation: attestation.sigstore.json' })
      .example('$0 verify certified/attestation.sigstore.json --key signing.pub.pem --report certified/report.json', 'a keyed attestation and the report it binds')
      .example(
        `$0 verify attestation.sigstore.json --certificate-identity https://github.com/acme/access/.github/workflows/conformance.yml@refs/heads/main --certificate-oidc-issuer https://token.actions.githubusercontent.com --subject ghcr.io/acme/access@sha256:${'4f1c'.padEnd(60, '0')}93e9`,
        'a keyless attestation from GitHub Actions, for this release',
      )
      .epilogue('Exit codes: 0 the attestation is valid; 1 it is not (each failed check is named); 2 usage error (a missing file, no key). docs/certify.md shows verifying with a third-party tool too.'),
  run: async (options, args) => {
    checkFlags(options);
    const bundlePath = String(args.bundle);
    const bundleText = (await readInput(bundlePath, 'BUNDLE', MAX_BUNDLE_BYTES)).toString('utf8');
    const report = options.report === undefined ? undefined : await readInput(options.report, '--report', MAX_REPORT_BYTES);
    const attest = await import('../../attest/index.js');
    let trustedRoot: unknown;
    if (options.trustedRoot !== undefined) {
      try {
        trustedRoot = JSON.parse((await readInput(options.trustedRoot, '--trusted-root', MAX_BUNDLE_BYTES)).toString('utf8'));
      } catch (error) {
        if (error instanceof HarnessError) throw error;
        throw usage(`--trusted-root: ${options.trustedRoot} is not JSON`, '--trusted-root');
      }
    }
    const outcome = await attest.verifyAttestation({
      bundleText,
      ...(options.key === undefined ? {} : { key: await attest.loadPublicKey(options.key) }),
      ...(options.certificateIdentity === undefined || options.certificateOidcIssuer === undefined
        ? {}
        : { identity: { identity: options.certificateIdentity, issuer: options.certificateOidcIssuer, timeoutMs: DEFAULT_TIMEOUT_MS, ...(trustedRoot === undefined ? {} : { trustedRoot }) } }),
      ...(options.subject === undefined ? {} : { subject: options.subject }),
      catalogueVersion: options.catalogueVersion ?? CATALOGUE_VERSION,
      ...(report === undefined ? {} : { report }),
    });
    process.stdout.write(options.format === 'json' ? `${JSON.stringify({ valid: outcome.valid, signer: outcome.signer ?? null, checks: outcome.checks, statement: outcome.statement ?? null }, null, 2)}\n` : renderOutcome(outcome, bundlePath));
    return outcome.valid ? 0 : 1;
  },
});
