/**
 * CONFORMANCE_FAULT=<name>: the reference image with one fault of src/faults switched on, so that a
 * "faulty image" can prove `run --image` reports a non-conformant implementation (exit 1).
 */
import { getFault, listFaults } from '../faults/index.js';
import type { SandboxCustomize } from '../tenant/index.js';

export type FaultLookup = { ok: true; customize: SandboxCustomize } | { ok: false; message: string };

export function lookupFault(name: string): FaultLookup {
  const fault = getFault(name);
  if (fault !== undefined) return { ok: true, customize: fault.customize };
  const known = listFaults().map((entry) => entry.name);
  const list = known.length > 0 ? `known faults: ${known.join(', ')}` : 'the faults registry is empty';
  return { ok: false, message: `unknown fault ${JSON.stringify(name)} in CONFORMANCE_FAULT (${list})` };
}
