/**
 * The target of a run: a profile file, the embedded reference (optionally with faults), or a container
 * image. The containers module is imported lazily: a run without --image never loads testcontainers. So are
 * the reference and its tenant, and the profile's loader and validator: each loads in the phase that uses it
 * (a run's start-up before its first phase is the CLI's own), and only for the target kind that uses it.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ResolvedProfile } from '../../profile/types.js';
import type { ImageTarget } from '../../containers/index.js';
import { loadContainers } from '../../containers/load-containers.js';
import type { combineFaults } from '../../faults/index.js';
import type { resolveWrapper } from './served-wrappers.js';
import type { TargetPlan } from './run-options.js';

export interface StartedTarget {
  profile: ResolvedProfile;
  /** Shown in the header when the harness started the target. */
  description?: string;
  /** Where the JWKS servers must listen when the profile's JWKS host is not this machine's name for itself. */
  jwksListenHost?: string;
  /** `--image`: the image's ID (`sha256:…`), what `run --attest` certifies. */
  imageId?: string;
  close(): Promise<void>;
}

/**
 * The embedded reference's operational lines (e.g. the JWKS it cannot fetch for the unreachable-JWKS
 * listener, on purpose) go to <out>/reference.log rather than between the progress lines.
 */
function referenceLog(outDir: string): { logger: (line: string) => void; close(): Promise<void>; redactWith(redact: (text: string) => string): void } {
  const path = join(resolve(outDir), 'reference.log');
  let stream: WriteStream | undefined;
  // The reference never logs secrets; once the profile is known its secrets are redacted here anyway.
  let redact = (text: string): string => text;
  return {
    redactWith: (fn) => {
      redact = fn;
    },
    logger: (line) => {
      if (!stream) {
        mkdirSync(resolve(outDir), { recursive: true });
        stream = createWriteStream(path, { flags: 'w' });
      }
      stream.write(`${new Date().toISOString()} ${redact(line)}\n`);
    },
    close: () => new Promise<void>((done) => (stream ? stream.end(() => done()) : done())),
  };
}

async function loadWrappers(): Promise<{ resolveWrapper: typeof resolveWrapper; combineFaults: typeof combineFaults }> {
  const [wrappers, faults] = await Promise.all([import('./served-wrappers.js'), import('../../faults/index.js')]);
  return { resolveWrapper: wrappers.resolveWrapper, combineFaults: faults.combineFaults };
}

/** The start-up phases of a target, as the run scope names them. */
export type TargetPhase = 'profile' | 'embedded reference' | 'keys' | 'image';

/** The profile's loader (and through it the JSON Schema validator), once a phase needs it. */
async function loadProfile(path: string): Promise<ResolvedProfile> {
  return (await import('../../profile/index.js')).loadProfile(path);
}

export async function startTarget(plan: TargetPlan, seed: string, outDir: string, onPhase: (phase: TargetPhase) => Promise<void> = async () => {}): Promise<StartedTarget> {
  if (plan.kind === 'profile') {
    await onPhase('profile');
    const profile = await loadProfile(plan.path);
    return { profile, close: async () => undefined };
  }
  if (plan.kind === 'embedded') {
    // Lazy: the fault and variant tables and their family helpers load only for a run with --fault.
    const wrappers = plan.faults.length > 0 ? await loadWrappers() : undefined;
    const faults = wrappers ? plan.faults.map((name) => wrappers.resolveWrapper(name)) : [];
    const customize = wrappers && faults.length > 0 ? wrappers.combineFaults(faults) : undefined;
    const log = referenceLog(outDir);
    await onPhase('embedded reference');
    const { startSandbox } = await import('../../tenant/index.js');
    const sandbox = await startSandbox({ seed, hooks: true, logger: log.logger, onKeys: () => onPhase('keys'), ...(customize ? { customize } : {}) });
    const close = async (): Promise<void> => {
      await sandbox.close();
      await log.close();
    };
    try {
      await onPhase('profile');
      const profile = await loadProfile(sandbox.profilePath);
      log.redactWith((await import('../../reporters/context.js')).createRedact(profile));
      const withFaults = faults.length > 0 ? ` with fault${faults.length === 1 ? '' : 's'} ${faults.map((f) => f.name).join(', ')}` : '';
      return { profile, description: `embedded reference${withFaults}`, close };
    } catch (error) {
      await close();
      throw error;
    }
  }
  // Lazy: only --image loads testcontainers (an optional dependency: absent, this is DEPENDENCY_MISSING).
  await onPhase('image');
  const containers = await loadContainers();
  const started: ImageTarget = await containers.startImageTarget({
    image: plan.image,
    // The run's seed, so an image that honours it (the reference does) builds the same tenant for the same
    // --seed; --image-env may still set its own.
    env: { CONFORMANCE_SEED: seed, ...plan.env },
    ...(plan.port === undefined ? {} : { port: plan.port }),
    startupTimeoutMs: plan.startupTimeoutMs,
    keepContainer: plan.keepContainer,
    network: plan.network,
    reportDir: resolve(outDir),
    hooks: true,
  });
  try {
    const profile = await loadProfile(started.profilePath);
    return {
      profile,
      description: started.describe,
      ...(started.jwksListenHost === undefined ? {} : { jwksListenHost: started.jwksListenHost }),
      ...(started.imageId === undefined ? {} : { imageId: started.imageId }),
      close: () => started.stop(),
    };
  } catch (error) {
    await started.stop();
    throw error;
  }
}
