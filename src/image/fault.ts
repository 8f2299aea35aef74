/**
 * CONFORMANCE_FAULT=<name>: the reference image with one fault of src/faults switched on, so that a
 * "faulty image" can prove `run --image` reports a non-conformant implementation (exit 1).
 */
import type { SandboxCustomize } from '../tenant/index.js';

export type FaultLookup = { ok: true; customize: SandboxCustomize } | { ok: false; message: string };

// The faults registry as this module uses it; loaded on demand so an image without a fault never loads it.
interface FaultsModule {
  getFault(name: string): { customize: SandboxCustomize } | undefined;
  listFaults?(): Array<{ name: string }>;
}

const FAULTS_MODULE = '../faults/index.js';

export async function lookupFault(name: string): Promise<FaultLookup> {
  const faults = (await import(FAULTS_MODULE)) as FaultsModule;
  const fault = faults.getFault(name);
  if (fault !== undefined) return { ok: true, customize: fault.customize };
  const known = faults.listFaults?.().map((entry) => entry.name) ?? [];
  const list = known.length > 0 ? `known faults: ${known.join(', ')}` : 'the faults registry is empty';
  return { ok: false, message: `unknown fault ${JSON.stringify(name)} in CONFORMANCE_FAULT (${list})` };
}
