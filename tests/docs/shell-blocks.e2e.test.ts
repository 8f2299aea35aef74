/**
 * Everything the docs print runs as printed: every shell block of README.md and docs/*.md, in order per
 * file, in a scratch folder of its own, and every example of every command's `--help`. The package is the
 * tarball `npm pack` makes of this checkout (packed once per run), installed as a reader installs it: the
 * README's own block runs `npm install ./access-conformance-<version>.tgz` next to the tarball; the other
 * files' folders link the node_modules of one install the test makes the same way. A reader's shell: no
 * node_modules/.bin on PATH (so a bare `access-conformance` line fails as it fails for them), no npm_* or
 * ACCESS_CONFORMANCE_* variables. `target.json` (and `service.openapi.yaml`) stand for the reader's
 * deployment: a `serve --hooks` sandbox this test starts. The convention (outcome comments, skips,
 * background commands) is tests/docs/support/shell-blocks.ts's, written out in docs/development.md ("The docs
 * as tests"). Skipped, saying so, when the npm registry does not answer (the install needs it).
 */
import { generateKeyPair } from 'node:crypto';
import { copyFile, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startWithProfile, type StartedProcess } from '../cli/support.js';
import { packInScratch, runProcess, type PackedWork } from '../package/support.js';
import { ShellSession, describeFailures, shellBlocks, type ShellBlock, type ShellCommand } from './support/shell-blocks.js';
import { helpExamples, type HelpExample } from './support/help-examples.js';
import { skipBecause, skipUnless } from '../support/capabilities.js';

const COMMAND_MS = 180_000;
const READY_MS = 60_000;
const INSTALL_MS = 300_000;
const OFFLINE = 'the npm registry does not answer (npm ping): the package cannot be installed';

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

let scratch: PackedWork | undefined;
let online = false;
let installed = '';
let sandbox: StartedProcess | undefined;

/** A reader's environment: the test runner's, without what npm and this project's own runs add. */
function readerEnv(extraPath: string[] = []): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|ACCESS_CONFORMANCE_|GITHUB_|INPUT_|VITEST|NODE_OPTIONS$)/i.test(name)),
  );
  const path = (process.env.PATH ?? '').split(delimiter).filter((entry) => entry !== '' && !entry.includes('node_modules/.bin'));
  // A global install (`npm install -g`) goes to a scratch prefix, never to the machine's.
  const prefix = scratch === undefined ? {} : { npm_config_prefix: join(scratch.work, 'npm-global') };
  // --prefer-offline: packages the npm cache holds are not revalidated with the registry (the installs are
  // what a reader runs, only quicker on a machine that installed them before).
  return { ...env, ...prefix, npm_config_prefer_offline: 'true', NO_COLOR: '1', PATH: [...extraPath, ...path].join(delimiter) };
}

beforeAll(async () => {
  scratch = await packInScratch(ROOT, 'ac-docs-');
  online = scratch.online;
  if (!online) return;
  installed = join(scratch.work, 'installed');
  await mkdir(installed);
  const install = await runProcess('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', scratch.tarball], { cwd: installed, env: readerEnv(), timeoutMs: INSTALL_MS });
  if (install.code !== 0) throw new Error(`npm install of ${scratch.tarball} failed: ${install.stderr}`);
  // The stand-in deployment: target.json and its description, from a sandbox of the installed package.
  const deployment = join(scratch.work, 'deployment');
  await mkdir(deployment);
  sandbox = await startWithProfile(join(installed, 'node_modules', '.bin', 'access-conformance'), ['serve', '--hooks', '--profile-out', 'target.json'], join(deployment, 'target.json'), {
    cwd: deployment,
    env: readerEnv(),
    label: 'the stand-in deployment (serve)',
  });
}, INSTALL_MS + 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await scratch?.remove();
});

/** A folder for one file's blocks: the tarball, the stand-in deployment, and the install unless the file makes its own. */
async function readerFolder(name: string, installsItself: boolean): Promise<string> {
  const folder = join(scratch!.work, name.replace(/[/.]/g, '-'));
  await mkdir(folder);
  await copyFile(scratch!.tarball, join(folder, basename(scratch!.tarball)));
  if (!installsItself) await symlink(join(installed, 'node_modules'), join(folder, 'node_modules'));
  const deployment = join(scratch!.work, 'deployment');
  for (const file of await readdir(deployment)) if (file.startsWith('target.')) await copyFile(join(deployment, file), join(folder, file));
  await copyFile(join(deployment, 'target.openapi.json'), join(folder, 'service.openapi.yaml'));
  return folder;
}

function installsItself(blocks: readonly ShellBlock[]): boolean {
  return blocks.some((block) => block.skip === undefined && block.commands.some((command) => /\bnpm install\b.*\.\/access-conformance-/.test(command.text)));
}

for (const file of DOCS) {
  const blocks = shellBlocks(file, readFileSync(join(ROOT, file), 'utf8'));
  if (blocks.length === 0) continue;
  describe(file, () => {
    let session: ShellSession | undefined;
    beforeAll(async () => {
      if (!online) return;
      session = new ShellSession({ cwd: await readerFolder(file, installsItself(blocks)), env: readerEnv(), timeoutMs: COMMAND_MS, readyMs: READY_MS });
    });
    afterAll(async () => {
      await session?.stopAll();
    });
    for (const block of blocks) {
      if (block.skip !== undefined) {
        it(`${file}:${block.line}`, (ctx) => skipBecause(ctx, `the doc marks this block not to run: ${block.skip}`));
        continue;
      }
      it(`${file}:${block.line}`, async (ctx) => {
        skipUnless(ctx, 'registry', online, OFFLINE);
        const outcomes = await session!.runBlock(block);
        expect(describeFailures(outcomes, file)).toEqual([]);
      }, block.commands.length * (COMMAND_MS + READY_MS));
    }
  });
}

/** What a `--help` example is expected to do, from what it asks for (the default: exit 0). */
function helpOutcome(example: HelpExample): { skip?: string; exit: number; background: boolean } {
  if (/--image\b/.test(example.text)) return { skip: 'needs a Docker engine and the image it names', exit: 0, background: false };
  if (/--certificate-identity\b/.test(example.text)) return { skip: 'needs a keyless attestation a CI job signed through Sigstore', exit: 0, background: false };
  // A run of the embedded reference with a fault must fail; send exits 1 on a status other than 2xx.
  if (example.command === 'run' && /--fault\b/.test(example.text)) return { exit: 1, background: false };
  if (example.command === 'send' && /--break\b/.test(example.text) && !/--strict\b/.test(example.text) && !/--dry-run\b/.test(example.text)) return { exit: 1, background: false };
  // serve runs until stopped: started in the background, ready once it says so, stopped at the end.
  return { exit: 0, background: example.command === 'serve' };
}

describe('--help examples, as printed (the program name on PATH)', async () => {
  const examples = await helpExamples();
  let session: ShellSession | undefined;
  let helpFolder = '';
  /**
   * Each example stands alone (a reader of `diff --help` has reports of their own): the files they name
   * are put back before each one, since a run replaces the reports an earlier run left in its --out.
   */
  const helpFixtures = async (): Promise<void> => {
    for (const dir of ['last-week', 'reports']) {
      await mkdir(join(helpFolder, dir), { recursive: true });
      await copyFile(join(helpFolder, 'main', 'report.json'), join(helpFolder, dir, 'report.json'));
    }
    // The sandbox profile `serve` would have written, with the files it names beside it.
    for (const file of await readdir(helpFolder)) if (file.startsWith('target.')) await copyFile(join(helpFolder, file), join(helpFolder, 'reports', file));
    await copyFile(join(helpFolder, 'target.json'), join(helpFolder, 'reports', 'sandbox.target.json'));
  };
  beforeAll(async () => {
    if (!online) return;
    const folder = await readerFolder('help', false);
    const env = readerEnv([join(folder, 'node_modules', '.bin')]);
    // What the examples name besides the deployment: another profile, an event, earlier reports.
    await copyFile(join(folder, 'target.json'), join(folder, 'p.json'));
    await writeFile(join(folder, 'event.json'), '{"user":"u-1","action":"offboard"}\n');
    // run --attest's example signs with signing.pem; verify's checks with its public half (run's comes first).
    const key = await promisify(generateKeyPair)('ed25519');
    await writeFile(join(folder, 'signing.pem'), key.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(folder, 'signing.pub.pem'), key.publicKey.export({ type: 'spki', format: 'pem' }));
    const earlier = await runProcess('access-conformance', ['run', '--only', 'OWN-*', '--reporter', 'json', '--out', 'main'], { cwd: folder, env, timeoutMs: COMMAND_MS });
    expect(earlier.code, earlier.stdout + earlier.stderr).toBe(0);
    helpFolder = folder;
    await helpFixtures();
    session = new ShellSession({ cwd: folder, env, timeoutMs: COMMAND_MS, readyMs: READY_MS });
  }, COMMAND_MS);
  afterAll(async () => {
    await session?.stopAll();
  });

  it('every command has examples', () => {
    expect(new Set(examples.map((example) => example.command)).size).toBeGreaterThanOrEqual(4);
  });

  for (const example of examples) {
    const outcome = helpOutcome(example);
    const title = `${example.command} --help: ${example.text}`;
    if (outcome.skip !== undefined) {
      it(title, (ctx) => skipBecause(ctx, `not run: ${outcome.skip}`));
      continue;
    }
    it(title, async (ctx) => {
      skipUnless(ctx, 'registry', online, OFFLINE);
      await helpFixtures();
      const command: ShellCommand = { text: example.text, line: 0, background: outcome.background, expectExit: outcome.exit, expectPrints: [] };
      const outcomes = await session!.runBlock({ file: `${example.command} --help`, line: 0, commands: [command] });
      expect(describeFailures(outcomes, `${example.command} --help`)).toEqual([]);
    }, COMMAND_MS + READY_MS);
  }
});
