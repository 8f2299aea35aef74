/**
 * An entry's behaviour (its `wrap`, `ports`, `issue`, `limits`: {@link FaultBehaviour}) as the
 * {@link SandboxCustomize} the sandbox applies. Each hook sees a {@link FaultEnv}: the tenant, and the ports the
 * reference really runs with, so a wrapper can mint a token or record a run the way a faulty service would.
 * Used by the fault registry (all.ts) and the variants' (src/variants).
 */
import type { ReferenceDeps, ReferenceHandler } from '../../reference/types.js';
import type { SandboxCustomize, Tenant } from '../../tenant/types.js';
import type { BodyLimit, FaultBehaviour, FaultEnv } from '../types.js';

// The ports each tenant's reference ends up with. startSandbox calls every deps hook before any wrapper,
// so by the time a request arrives this holds the final merge.
const portsByTenant = new WeakMap<Tenant, ReferenceDeps>();

function envOf(tenant: Tenant): FaultEnv {
  return {
    tenant,
    ports() {
      const deps = portsByTenant.get(tenant);
      if (deps === undefined) throw new Error('fault: the ports of this tenant are not known yet (deps hook not called)');
      return deps;
    },
  };
}

/** `name` only names the declaration in the errors: a behaviour must be kebab-named and change something. */
export function customizeOf(name: string, behaviour: FaultBehaviour): SandboxCustomize {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`fault name "${name}" is not kebab-case`);
  const { issue, ports, wrap, limits } = behaviour;
  if (!wrap && !ports && !issue && !limits) throw new Error(`fault ${name} changes nothing`);
  return {
    // What the service issues changes before the reference is configured and the profile written.
    ...(issue ? { tenant: (tenant: Tenant) => (issue(tenant), tenant) } : {}),
    deps: (deps, tenant) => {
      const replaced = ports?.(deps, envOf(tenant)) ?? {};
      portsByTenant.set(tenant, { ...deps, ...replaced });
      return replaced;
    },
    ...(wrap ? { wrapHandler: (handler: ReferenceHandler, tenant: Tenant) => wrap(handler, envOf(tenant)) } : {}),
    ...(limits ? { limitFor: (limitFor: BodyLimit, tenant: Tenant) => limits(limitFor, envOf(tenant)) } : {}),
  };
}

/**
 * Several wrapping behaviours as one, the first innermost: one reading that two parts of a service take (a
 * variant's token endpoint and webhook listener).
 */
export function composed(...behaviours: FaultBehaviour[]): FaultBehaviour {
  if (behaviours.some((behaviour) => behaviour.issue || behaviour.ports || behaviour.limits)) throw new Error('composed: only wrapping behaviours compose');
  const wraps = behaviours.flatMap((behaviour) => (behaviour.wrap ? [behaviour.wrap] : []));
  return { wrap: (handler, env) => wraps.reduce((inner, wrap) => wrap(inner, env), handler) };
}
