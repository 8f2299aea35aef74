/**
 * Serves a JWT listener's JWKS (the public halves of its signing keys) over HTTPS at the URL the listener
 * was given (profile `serveJwks`), so the target can fetch it during a run. It can also serve a JWKS that
 * lacks a key, or refuse connections for a while, to show how the target handles either.
 */
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { buildJwks, type JWK } from '../crypto/index.js';
import { HarnessError } from '../errors.js';
import type { ResolvedJwtListener, ResolvedProfile } from '../profile/types.js';
import { startJwksControl, type JwksControl, type JwksControlServer } from './jwks-control.js';

export type JwksMode = 'normal' | { omitKid: string } | 'unavailable';

export interface JwksServer {
  /** The URL it answers on (with the real port when port 0 was asked for). */
  readonly url: string;
  setMode(mode: JwksMode): void;
  /**
   * Public keys served besides the listener's own, replacing any set before: a key rotated in mid-run.
   * Private members are dropped, so a private JWK can be passed as is.
   */
  setExtraKeys(keys: ReadonlyArray<Record<string, unknown>>): void;
  /** Requests served since start (a target that never fetched the JWKS shows 0). */
  readonly requestCount: number;
  close(): Promise<void>;
}

export interface JwksServerOptions {
  /** Listen on this host instead of the URL's (e.g. `0.0.0.0` behind a DNS name that points here). */
  host?: string;
  /** Listen on this port instead of the URL's (0: any free port). */
  port?: number;
  /** PEM certificate chain and key; default the listener's serveJwks.tlsCert / tlsKey. */
  tlsCert?: string;
  tlsKey?: string;
}

function jwksError(message: string, cause?: unknown): HarnessError {
  return new HarnessError('JWKS_SERVER', message, {
    field: 'webhooks.jwt.serveJwks',
    hint: 'Check serveJwks.url (an https URL whose host and port this machine can listen on; pass a host/port override, e.g. 0.0.0.0, when its host name points here from outside) and its tlsCertFile/tlsKeyFile.',
    cause,
  });
}

export async function startJwksServer(listener: ResolvedJwtListener, options: JwksServerOptions = {}): Promise<JwksServer> {
  const serve = listener.serveJwks;
  if (!serve) throw jwksError(`listener ${listener.listenerId} has no serveJwks: its JWKS is hosted elsewhere`);
  let url: URL;
  try {
    url = new URL(serve.url);
  } catch (error) {
    throw jwksError(`serveJwks.url of listener ${listener.listenerId} is not a URL`, error);
  }
  if (url.protocol !== 'https:') throw jwksError(`serveJwks.url must be https (service.md §5.4), got ${url.protocol}`);
  const cert = options.tlsCert ?? serve.tlsCert;
  const key = options.tlsKey ?? serve.tlsKey;
  if (!cert || !key) throw jwksError(`listener ${listener.listenerId} needs serveJwks.tlsCertFile and tlsKeyFile to serve its JWKS over HTTPS`);

  let mode: JwksMode = 'normal';
  let extraKeys: JWK[] = [];
  let requestCount = 0;
  const sockets = new Set<Socket>();
  const path = url.pathname;

  let server: Server;
  try {
    server = createServer({ cert, key }, (req, res) => {
      requestCount += 1;
      if (mode === 'unavailable') {
        // Unreachable, not an error page: the connection is dropped before any answer.
        req.socket.destroy();
        return;
      }
      const requestPath = (req.url ?? '/').split('?')[0];
      if (req.method !== 'GET' || requestPath !== path) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const omit = typeof mode === 'object' ? mode.omitKid : undefined;
      const keys = listener.signingKeys.filter((k) => k.kid !== omit);
      const body = JSON.stringify(buildJwks([...keys, ...extraKeys]));
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  } catch (error) {
    throw jwksError(`the TLS certificate or key of listener ${listener.listenerId} cannot be used`, error);
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A handshake with a client that rejects the certificate must not crash the harness.
  server.on('tlsClientError', () => {});

  const host = options.host ?? url.hostname.replace(/^\[|\]$/g, '');
  const port = options.port ?? (url.port === '' ? 443 : Number(url.port));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(jwksError(`cannot listen on ${host}:${port} for ${url.href} (${(error as NodeJS.ErrnoException).code ?? error.message})`, error)));
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const served = new URL(url.href);
  served.port = actualPort === 443 ? '' : String(actualPort);

  return {
    url: served.href,
    get requestCount() {
      return requestCount;
    },
    setMode(next) {
      mode = next;
    },
    setExtraKeys(next) {
      extraKeys = buildJwks(next as JWK[]).keys;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * One server per profile JWT listener that has serveJwks (except the one meant to be unreachable), and a
 * control endpoint on 127.0.0.1 through which suite workers (other processes) change the served key set.
 */
export async function startProfileJwksServers(
  profile: ResolvedProfile,
  options: Omit<JwksServerOptions, 'tlsCert' | 'tlsKey'> = {},
): Promise<{ servers: JwksServer[]; control?: JwksControl; close(): Promise<void> }> {
  const servers: JwksServer[] = [];
  let control: JwksControlServer | undefined;
  const close = async (): Promise<void> => {
    await Promise.all([...servers.map((server) => server.close()), control?.close()]);
  };
  try {
    for (const listener of [profile.webhooks.jwt]) {
      if (listener?.serveJwks) servers.push(await startJwksServer(listener, options));
    }
    if (servers[0] !== undefined) control = await startJwksControl(servers[0]);
  } catch (error) {
    await close();
    throw error;
  }
  return { servers, ...(control ? { control: control.control } : {}), close };
}
