/**
 * No silent skip (issue 47): what a test needs from the machine, by name, and the one way a test skips for
 * lack of it. `.ci/run` installs or starts what it can and declares what it provides in `AC_CAPABILITIES`
 * (a comma-separated list of the names below); a test that finds a declared capability missing FAILS,
 * because CI promised it. Elsewhere (a developer's machine, a fork's CI) the test skips with its reason,
 * which the skip summary (tests/support/skip-summary.ts) lists at the end of the run and JUnit carries as
 * `<skipped message=…>` (tests/support/junit-skips.ts).
 */
import { describe, it, type TestContext } from 'vitest';

/** Every capability a test may need, with what it stands for. */
export const CAPABILITIES = {
  root: 'running as root',
  tmpfs: 'mount -t tmpfs (root): a small filesystem to fill',
  registry: 'the npm registry answers (npm ping)',
  xmllint: 'xmllint (Debian package libxml2-utils)',
  chromium: 'Chromium (Debian package chromium)',
  docker: 'a Docker engine that answers `docker info`',
  debootstrap: 'debootstrap and root (docker/Dockerfile\'s stand-in base)',
  'python-stacks': 'FastAPI, PyJWT and uvicorn for Debian\'s python3',
  go: 'Go 1.19 (Debian package golang-1.19-go)',
  cc: 'a C compiler (CC, else cc): the benches\' native minimal server',
  securesystemslib: 'python3-securesystemslib',
  k6: 'a k6 binary (K6_BIN or PATH; never declared by .ci/run: no k6 ships here)',
  curl: 'curl',
  promtool: 'promtool (Prometheus)',
  linux: 'Linux (/proc)',
  posix: 'POSIX file modes and links',
  dist: 'the built dist/ (npm run build)',
  'shared-spec': 'the authority\'s folder ../shared/spec beside the repository',
  'real-description': 'the real OpenAPI description beside the repository',
  unshare: 'root and unshare, to hide a reachable container engine',
} as const;

export type Capability = keyof typeof CAPABILITIES;

/** The capabilities CI declared (AC_CAPABILITIES); an unknown name is a mistake in .ci/run, said at once. */
export function declaredCapabilities(env: NodeJS.ProcessEnv = process.env): ReadonlySet<Capability> {
  const names = (env.AC_CAPABILITIES ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in CAPABILITIES));
  if (unknown.length > 0) throw new Error(`AC_CAPABILITIES names unknown capabilities: ${unknown.join(', ')} (known: ${Object.keys(CAPABILITIES).join(', ')})`);
  return new Set(names as Capability[]);
}

/** What skipUnless does when the capability is missing: skip with the note, or fail with the message. */
export function missingCapability(capability: Capability, reason: string, env: NodeJS.ProcessEnv = process.env): { skip: string } | { fail: string } {
  if (declaredCapabilities(env).has(capability)) {
    return { fail: `${capability} is declared by .ci/run (AC_CAPABILITIES) but missing here: ${reason}` };
  }
  return { skip: `needs ${capability}: ${reason}` };
}

/**
 * In a test, or a beforeEach for a whole describe: when `available` is false, the test skips saying why, or
 * fails when CI declared the capability. Never call `it.skipIf`/`runIf` or return early instead: those skip
 * without a reason anyone sees.
 */
export function skipUnless(ctx: Pick<TestContext, 'skip'>, capability: Capability, available: boolean, reason: string): void {
  if (available) return;
  const missing = missingCapability(capability, reason);
  if ('fail' in missing) throw new Error(missing.fail);
  ctx.skip(missing.skip);
}

/**
 * A describe whose every test needs the capability: declared as usual when it is there; else, in its
 * place, one test that skips with the reason (or fails when CI declared it). Its hooks never run then, so
 * a beforeAll that starts the missing tool is not reached.
 */
export function describeWith(capability: Capability, available: boolean, reason: string, title: string, body: () => void): void {
  if (available) describe(title, body);
  else it(`${title} (every test of it)`, (ctx) => skipUnless(ctx, capability, false, reason));
}

/**
 * A skip that is not for a capability of the machine (a docs block marked not to run, a test whose
 * prerequisite test failed): skipped with its reason, which the summary lists; never a failure by itself.
 */
export function skipBecause(ctx: Pick<TestContext, 'skip'>, reason: string): void {
  ctx.skip(reason);
}
