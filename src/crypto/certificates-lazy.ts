/**
 * The certificate functions, loading @peculiar/x509 (with reflect-metadata and tslib) on first use: every
 * process and suite worker that imports the client imports crypto/index.ts, and only a sandbox that makes a
 * certificate (the first of a machine, certificate-cache.ts; `serve --tls`) needs the library; loading it
 * eagerly cost each of them ~20 MB and 85 ms of start-up. Importable alone, without jose (the tenant does).
 */
type Certificates = typeof import('./certificates.js');

export async function createLocalCa(...args: Parameters<Certificates['createLocalCa']>): ReturnType<Certificates['createLocalCa']> {
  return (await import('./certificates.js')).createLocalCa(...args);
}

export async function issueServerCertificate(...args: Parameters<Certificates['issueServerCertificate']>): ReturnType<Certificates['issueServerCertificate']> {
  return (await import('./certificates.js')).issueServerCertificate(...args);
}

export async function createSelfSignedSigningKey(...args: Parameters<Certificates['createSelfSignedSigningKey']>): ReturnType<Certificates['createSelfSignedSigningKey']> {
  return (await import('./certificates.js')).createSelfSignedSigningKey(...args);
}
