/**
 * The target of a run: a profile file, the embedded reference (optionally with faults), or a container
 * image. Faults and containers are imported lazily: a plain run never loads testcontainers, and the faults
 * module is only needed with --fault.
 */
import { resolve } from 'node:path';
import { HarnessError } from '../../errors.js';
import { loadProfile } from '../../profile/index.js';
import type { ResolvedProfile } from '../../profile/types.js';
import { startSandbox, type SandboxCustomize } from '../../tenant/index.js';
import type { TargetPlan } from './run-options.js';

export interface StartedTarget {
  profile: ResolvedProfile;
  /** Shown in the header when the harness started the target. */
  description?: string;
  close(): Promise<void>;
}

/** The part of src/faults/index.ts the run command uses. */
interface FaultDefinition {
  name: string;
  description: string;
  breaks: readonly string[];
  customize: SandboxCustomize;
}
interface FaultsModule {
  getFault(name: string): FaultDefinition | undefined;
  listFaults(): FaultDefinition[];
}

/** The part of src/containers/index.ts the run command uses. */
interface ImageTarget {
  profilePath: string;
  networkMode: 'host' | 'bridge';
  describe: string;
  stop(): Promise<void>;
}
interface ContainersModule {
  startImageTarget(options: {
    image: string;
    env: Record<string, string>;
    port?: number;
    startupTimeoutMs: number;
    keepContainer: boolean;
    reportDir: string;
    hooks: boolean;
  }): Promise<ImageTarget>;
}

// Specifiers in variables: these modules load only when asked for, and tsc does not tie this file to them.
const FAULTS_MODULE = '../../faults/index.js';
const CONTAINERS_MODULE = '../../containers/index.js';

async function loadFaults(names: string[]): Promise<FaultDefinition[]> {
  const faults = (await import(FAULTS_MODULE)) as FaultsModule;
  return names.map((name) => {
    const fault = faults.getFault(name);
    if (!fault) {
      const available = faults.listFaults().map((f) => f.name).sort();
      throw new HarnessError('USAGE', `unknown fault "${name}"; available: ${available.join(', ')}`, {
        field: '--fault',
        hint: 'each fault breaks specific requirements of the embedded reference; see docs/faults.md',
      });
    }
    return fault;
  });
}

/** Several faults at once: handler wrappers nest in the order given, dependency replacements merge. */
function composeCustomize(faults: FaultDefinition[]): SandboxCustomize | undefined {
  if (faults.length === 0) return undefined;
  if (faults.length === 1) return faults[0]!.customize;
  return {
    wrapHandler: (handler, tenant) => faults.reduce((h, fault) => fault.customize.wrapHandler?.(h, tenant) ?? h, handler),
    deps: (deps, tenant) => {
      let merged = { ...deps };
      const replaced = {};
      for (const fault of faults) {
        const part = fault.customize.deps?.(merged, tenant) ?? {};
        merged = { ...merged, ...part };
        Object.assign(replaced, part);
      }
      return replaced;
    },
  };
}

export async function startTarget(plan: TargetPlan, seed: string, outDir: string): Promise<StartedTarget> {
  if (plan.kind === 'profile') {
    const profile = await loadProfile(plan.path);
    return { profile, close: async () => undefined };
  }
  if (plan.kind === 'embedded') {
    const faults = await loadFaults(plan.faults);
    const customize = composeCustomize(faults);
    const sandbox = await startSandbox({ seed, hooks: true, ...(customize ? { customize } : {}) });
    try {
      const profile = await loadProfile(sandbox.profilePath);
      const withFaults = faults.length > 0 ? ` with fault${faults.length === 1 ? '' : 's'} ${faults.map((f) => f.name).join(', ')}` : '';
      return { profile, description: `embedded reference${withFaults}`, close: () => sandbox.close() };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }
  const containers = (await import(CONTAINERS_MODULE)) as ContainersModule;
  const started = await containers.startImageTarget({
    image: plan.image,
    env: plan.env,
    ...(plan.port === undefined ? {} : { port: plan.port }),
    startupTimeoutMs: plan.startupTimeoutMs,
    keepContainer: plan.keepContainer,
    reportDir: resolve(outDir),
    hooks: true,
  });
  try {
    const profile = await loadProfile(started.profilePath);
    return { profile, description: started.describe, close: () => started.stop() };
  } catch (error) {
    await started.stop();
    throw error;
  }
}
