/**
 * Where a container behind a mapped port reaches this machine: the address its /etc/hosts gives
 * host.docker.internal (Docker resolves `host-gateway` to the daemon's host-gateway-ip, docker0's address
 * unless configured otherwise), read from the container itself since a minimal image has no shell to ask.
 */
import { networkInterfaces } from 'node:os';
import type { ContainerRuntimeClient, StartedTestContainer } from 'testcontainers';
import { HOST_GATEWAY_NAME } from '../image/contract.js';
import { jwksListenHostFor } from './runtime.js';

const TAR_BLOCK = 512;

/** The content of the first file of a tar archive (what the engine's archive endpoint sends for one file). */
export function firstFileOfTar(archive: Buffer): Buffer | undefined {
  if (archive.length < TAR_BLOCK) return undefined;
  // ustar header: the size is an octal number in bytes 124..135.
  const size = Number.parseInt(archive.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
  if (!Number.isInteger(size) || size < 0 || TAR_BLOCK + size > archive.length) return undefined;
  return archive.subarray(TAR_BLOCK, TAR_BLOCK + size);
}

/** The address a hosts file gives `name`, if any (first match, comments ignored). */
export function hostsFileAddress(hosts: string, name: string): string | undefined {
  for (const line of hosts.split('\n')) {
    const [address, ...names] = (line.split('#', 1)[0] ?? '').trim().split(/\s+/);
    if (address && names.includes(name)) return address;
  }
  return undefined;
}

async function readContainerFile(container: StartedTestContainer, path: string): Promise<string | undefined> {
  try {
    const stream = await container.copyArchiveFromContainer(path);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    return firstFileOfTar(Buffer.concat(chunks))?.toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The JWKS listen host for a bridged container: the address host.docker.internal stands for in it when
 * that is this machine's; failing to read it, the container's network gateways; else every address.
 */
export async function bridgeJwksListenHost(client: ContainerRuntimeClient, container: StartedTestContainer): Promise<string> {
  const local = Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((address) => address.address));
  const hosts = await readContainerFile(container, '/etc/hosts');
  const named = hosts === undefined ? undefined : hostsFileAddress(hosts, HOST_GATEWAY_NAME);
  if (named !== undefined) return jwksListenHostFor([named], local);
  const inspect = await client.container.inspect(client.container.getById(container.getId())).catch(() => undefined);
  return jwksListenHostFor(Object.values(inspect?.NetworkSettings.Networks ?? {}).map((net) => net.Gateway), local);
}
