/**
 * Fixture servers and profiles for the driver tests: plain node:http on 127.0.0.1, port 0.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResolvedProfile } from '../../../src/profile/types.js';

export interface FixtureServer {
  baseUrl: string;
  /** Requests received so far. */
  count(): Promise<number>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * The stalling server's code, run in its own process so its timers are not held up by the driver's event
 * loop (and the other way round): answers 200 at once, except during the first STALL ms of every PERIOD ms
 * (from its own start), when a request is held until the stall ends, as a target pausing for GC or a lock
 * would. Prints its port; answers the IPC message 'count' with the requests received.
 */
const STALLING_SERVER = `
import { createServer } from 'node:http';
const [period, stall] = process.argv.slice(-2).map(Number);
let received = 0;
const startedAt = performance.now();
const server = createServer((req, res) => {
  received += 1;
  req.resume();
  req.on('end', () => {
    const pos = (performance.now() - startedAt) % period;
    const answer = () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}');
    if (pos < stall) setTimeout(answer, stall - pos);
    else answer();
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
process.on('message', (m) => { if (m === 'count') process.send({ received }); });
process.on('disconnect', () => process.exit(0));
`;

export async function startStallingServer(periodMs: number, stallMs: number): Promise<FixtureServer> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', STALLING_SERVER, String(periodMs), String(stallMs)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stalling server did not start in 10 s')), 10_000);
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /port (\d+)\n/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the stalling server exited with ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    count: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { received: number }).received));
        child.send('count');
      }),
    async close() {
      child.disconnect();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Answers every request with `status` at once. */
export async function startStatusServer(status: number): Promise<FixtureServer> {
  let received = 0;
  const server = createServer((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-length': 0 }).end());
  });
  const baseUrl = await listen(server);
  return { baseUrl, count: async () => received, close: closer(server) };
}

/** The smallest profile the webhook-hmac scenario needs, pointing at a fixture server. */
export function fixtureProfile(baseUrl: string): ResolvedProfile {
  return {
    version: 1,
    name: 'fixture',
    baseUrl,
    tenantDomain: '127.0.0.1',
    webhookBaseUrl: baseUrl,
    tls: { insecureSkipVerify: false },
    credentials: { primary: { clientId: 'fixture-client-0001@127.0.0.1/load', clientSecret: 'not-used' } },
    apps: { entitlements: {} },
    webhooks: { hmac: { listenerId: 'wh_fixture', secret: 'fixture-hmac-secret' } },
    limits: { webhookBodyBytes: 65_536 },
    secrets: ['not-used', 'fixture-hmac-secret'],
  };
}
