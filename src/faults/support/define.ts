/**
 * defineFault: the one way fault files build a {@link FaultDeclaration} (the registry adds the area, from the fault's folder). A fault says how it wraps the handler
 * (`wrap`), which ports it replaces (`ports`) and, for faults in what the service issues, how it changes the
 * generated tenant (`issue`). Each of them sees a {@link FaultEnv}: the tenant, and the ports the reference
 * really runs with, so a wrapper can mint a token or record a run the way a faulty service would.
 */
import type { RequirementId } from '../../requirements/catalogue.js';
import type { ReferenceDeps, ReferenceHandler } from '../../reference/types.js';
import type { Tenant } from '../../tenant/types.js';
import type { FaultDeclaration } from '../types.js';

export interface FaultEnv {
  tenant: Tenant;
  /** The reference's ports as finally merged (read lazily: other faults may replace ports after this one). */
  ports(): ReferenceDeps;
}

export interface FaultSpec {
  name: string;
  description: string;
  breaks: RequirementId[];
  explains?: Partial<Record<RequirementId, string>>;
  /** Changes what the service issued (credentials, secrets) before the reference and the profile see it. */
  issue?: (tenant: Tenant) => void;
  /** Ports to replace; gets the ports as they stand. */
  ports?: (deps: ReferenceDeps, env: FaultEnv) => Partial<ReferenceDeps>;
  /** Wraps the reference's handler. */
  wrap?: (handler: ReferenceHandler, env: FaultEnv) => ReferenceHandler;
  /** Changes how much body the server reads per request line (see SandboxCustomize.limitFor). */
  limits?: (limitFor: BodyLimit, env: FaultEnv) => BodyLimit;
}

export type BodyLimit = (method: string, url: string) => number;

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

export function defineFault(spec: FaultSpec): FaultDeclaration {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(spec.name)) throw new Error(`fault name "${spec.name}" is not kebab-case`);
  // An empty `breaks` is a legitimate variant's (src/variants/) "warns on nothing"; the fault registry
  // refuses it for a fault (faults/index.ts).
  if (!spec.wrap && !spec.ports && !spec.issue && !spec.limits) throw new Error(`fault ${spec.name} changes nothing`);
  return {
    name: spec.name,
    description: spec.description,
    breaks: spec.breaks,
    ...(spec.explains ? { explains: spec.explains } : {}),
    customize: {
      // What the service issues changes before the reference is configured and the profile written.
      ...(spec.issue ? { tenant: (tenant: Tenant) => (spec.issue!(tenant), tenant) } : {}),
      deps: (deps, tenant) => {
        const replaced = spec.ports?.(deps, envOf(tenant)) ?? {};
        portsByTenant.set(tenant, { ...deps, ...replaced });
        return replaced;
      },
      ...(spec.wrap ? { wrapHandler: (handler: ReferenceHandler, tenant: Tenant) => spec.wrap!(handler, envOf(tenant)) } : {}),
      ...(spec.limits ? { limitFor: (limitFor: BodyLimit, tenant: Tenant) => spec.limits!(limitFor, envOf(tenant)) } : {}),
    },
  };
}
