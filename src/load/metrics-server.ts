/**
 * The HTTP endpoint of `load --metrics-listen HOST:PORT`: GET /metrics answers the Prometheus text
 * exposition of the run's registry (metrics.ts); anything else 404. It binds only the address the user
 * named, answers only what it renders itself, and bounds every wait (a scraper that stalls cannot hold the
 * run's end). An address beyond loopback (0.0.0.0, a LAN address) is allowed, with a warning saying what
 * it exposes: the endpoint has no authentication.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../errors.js';
import type { ListenAddress } from '../values.js';
import type { LoadMetrics } from './metrics.js';

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464/metrics (the bound port when 0 was asked). */
  url: string;
  /** Set when the address is reachable from beyond this machine: what that exposes, to print as a warning. */
  exposure?: string;
  close(): Promise<void>;
}

/** A scrape that has not sent its request in this time is dropped. */
const REQUEST_TIMEOUT_MS = 10_000;

export async function startMetricsServer(address: ListenAddress, metrics: LoadMetrics, flag = '--metrics-listen'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('the metrics could not be rendered\n'),
    );
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(bindError(error, address, flag)));
    server.listen(address.port, address.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const url = `http://${host}:${bound.port}/metrics`;
  return {
    url,
    ...(isLoopback(bound.address) ? {} : { exposure: exposureOf(flag, url) }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** 127.0.0.0/8 and ::1 (also as ::ffff:127.x): only this machine reaches them. */
export function isLoopback(address: string): boolean {
  return /^(?:::ffff:)?127\./.test(address) || address === '::1';
}

/** What a metrics endpoint beyond loopback gives away, and to whom. */
function exposureOf(flag: string, url: string): string {
  return `${flag} listens at ${url}, beyond loopback: anyone who can reach this machine on that port reads the run's live metrics (requests and errors by status and kind, latencies, requests in flight, the scenario), with no authentication. Use 127.0.0.1 unless a scraper elsewhere needs them.`;
}

function bindError(error: NodeJS.ErrnoException, address: ListenAddress, flag: string): HarnessError {
  const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  const why: Record<string, string> = {
    EADDRINUSE: 'the port is in use',
    EACCES: 'permission denied (ports below 1024 need privileges)',
    EADDRNOTAVAIL: 'no interface of this machine has that address',
    ENOTFOUND: 'the host name does not resolve',
    EAI_AGAIN: 'the host name does not resolve',
  };
  return new HarnessError('LOAD_CONFIG', `${flag} ${where}: cannot listen: ${why[error.code ?? ''] ?? error.message}`, {
    field: flag,
    hint: 'Name an address of this machine and a free port, e.g. 127.0.0.1:9464, or port 0 for any free one.',
    cause: error,
  });
}
