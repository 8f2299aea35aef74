/**
 * Last-resort removal when the process is exiting (the exit fallback a container registers with the stop
 * room's finalizers, stop/finalizers.ts): an exit listener allows synchronous work only, and
 * some listeners (vitest's, used by the engine) end the process 1 ms after SIGINT, before an asynchronous
 * removal can finish. A short-lived child node process then asks the engine's API to delete the container
 * while this process waits (bounded). Plain HTTP over the unix socket or TCP; a TLS-protected remote engine
 * is left to the asynchronous path.
 */
import { spawnSync } from 'node:child_process';
import type { ContainerRuntimeClient } from 'testcontainers';
import { stopMs } from '../stop/timings.js';

export interface DockerEndpoint {
  socketPath?: string;
  host?: string;
  port?: number;
}

const SYNC_REMOVE_TIMEOUT_MS = stopMs('syncRemove');

// Runs in the child: reads {endpoint, id} from stdin, sends DELETE /containers/<id>?force=true&v=true.
const CHILD_SCRIPT = `
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const { endpoint, id } = JSON.parse(input);
  const request = require('node:http').request(
    { ...endpoint, method: 'DELETE', path: '/containers/' + encodeURIComponent(id) + '?force=true&v=true' },
    (response) => { response.resume(); response.on('end', () => process.exit(0)); },
  );
  request.on('error', () => process.exit(1));
  request.setTimeout(${SYNC_REMOVE_TIMEOUT_MS - 1000}, () => process.exit(1));
  request.end();
});
`;

/** Where the engine's API is, when it can be reached with plain HTTP; undefined otherwise. */
export function dockerEndpoint(client: ContainerRuntimeClient): DockerEndpoint | undefined {
  const modem = client.container.dockerode.modem as unknown as { socketPath?: string; host?: string; port?: number | string; protocol?: string };
  if (modem.socketPath) return { socketPath: modem.socketPath };
  if (modem.host && modem.protocol === 'http') return { host: modem.host, port: Number(modem.port ?? 2375) };
  return undefined;
}

/** Blocks until the engine deleted the container (or the bounded wait ends). Never throws. */
export function removeContainerSync(endpoint: DockerEndpoint, id: string): void {
  try {
    spawnSync(process.execPath, ['-e', CHILD_SCRIPT], {
      input: JSON.stringify({ endpoint, id }),
      timeout: SYNC_REMOVE_TIMEOUT_MS,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    // Nothing more can be done while exiting; the container's label lets one find it later.
  }
}
