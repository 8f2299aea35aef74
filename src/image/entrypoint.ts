/**
 * Entry point of the reference image (`npm run image:reference`). Follows the image contract
 * (docs/containers.md): reads CONFORMANCE_* from the environment, starts the reference with a generated
 * tenant on the given host and port, publishes the target profile at CONFORMANCE_PROFILE_OUT, logs its
 * address, and serves until SIGTERM/SIGINT.
 *
 * Runs inside a minimal image: node built-ins and the reference's own dependencies only (never
 * testcontainers, vitest or yargs, which the image does not ship). Exit 2 on any setup problem.
 */
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { HarnessError, isHarnessError } from '../errors.js';
import { startSandbox, type Sandbox, type SandboxCustomize } from '../tenant/index.js';
import { lookupFault } from './fault.js';
import { readImageSettings } from './options.js';

const EXIT_SETUP = 2;

function say(line: string): void {
  process.stdout.write(`[reference-image] ${line}\n`);
}

function complain(line: string): void {
  process.stderr.write(`[reference-image] ${line}\n`);
}

/**
 * The sandbox writes the profile and its PEM files owner-only in a private staging folder; they are then
 * copied into the mounted folder readable by the harness (whose user may differ from the container's), the
 * profile last and by rename, so the harness never sees a half-written profile or one missing its files.
 */
async function publishProfile(stagedProfile: string, profileOut: string): Promise<void> {
  const stage = dirname(stagedProfile);
  const target = dirname(profileOut);
  await mkdir(target, { recursive: true });
  const others = (await readdir(stage)).filter((name) => name !== basename(stagedProfile));
  for (const name of [...others, basename(stagedProfile)]) {
    const destination = name === basename(stagedProfile) ? profileOut : join(target, name);
    const partial = `${destination}.partial`;
    await copyFile(join(stage, name), partial);
    await chmod(partial, 0o644);
    await rename(partial, destination);
  }
}

async function main(): Promise<number> {
  const read = readImageSettings(process.env);
  if (!read.ok) {
    for (const problem of read.problems) complain(problem);
    return EXIT_SETUP;
  }
  const settings = read.settings;

  let customize: SandboxCustomize | undefined;
  if (settings.fault !== undefined) {
    const found = lookupFault(settings.fault);
    if (!found.ok) {
      complain(found.message);
      return EXIT_SETUP;
    }
    customize = found.customize;
  }

  const stage = await mkdtemp(join(tmpdir(), 'reference-profile-'));
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await startSandbox({
      seed: settings.seed,
      host: settings.host,
      port: settings.port,
      hooks: settings.hooks,
      publicBaseUrl: settings.publicBaseUrl,
      jwksHost: settings.jwksHost,
      profilePath: join(stage, basename(settings.profileOut)),
      customize,
      logger: complain,
    });
    await publishProfile(sandbox.profilePath, settings.profileOut);
  } catch (error) {
    await sandbox?.close();
    complain(isHarnessError(error) ? HarnessError.prototype.format.call(error) : `cannot start: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_SETUP;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }

  const started = sandbox;
  const fault = settings.fault === undefined ? '' : ` with fault ${settings.fault} switched on`;
  say(`listening on ${settings.host}:${settings.port}, serving ${started.baseUrl}${fault}; hooks ${settings.hooks ? 'on' : 'off'}`);
  say(`target profile written to ${settings.profileOut}`);

  // PID 1 in a container gets no default signal handling: without these handlers SIGTERM would be ignored.
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      say(`${signal}: stopping`);
      void started.close().finally(resolve);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
}

process.exitCode = await main();
