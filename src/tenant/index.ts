/** Tenant generation and the sandbox: the reference implementation set up with a generated tenant. */
export type { SandboxCustomize, Tenant, TenantCredential, TenantHmacListener, TenantJwksServer, TenantJwtListener } from './types.js';
export { generateTenant, tenantBaseUrl, UNREACHABLE_CIDRS, type GenerateTenantOptions } from './generate.js';
export { buildProfileDocument, sandboxProfileFiles, writeSandboxProfile, type SandboxProfileFiles } from './profile.js';
export { startSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';
export { pickFreePort } from './ports.js';
