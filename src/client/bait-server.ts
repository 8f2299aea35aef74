/**
 * A URL the harness hands a target inside a token (`jku`, `x5u`, a `kid` that is a URL) to see whether the
 * target follows it. It serves what an attacker would (a JWKS holding the attacker's key, the attacker's
 * certificate) on 127.0.0.1 and counts every TCP connection, so a target that tries to fetch shows even
 * when it insists on TLS (the handshake fails, the connection is still counted). A target on another host
 * cannot reach 127.0.0.1 of this machine: there the count says nothing and checks only assert the status.
 */
import { createServer, type Server } from 'node:http';

export interface BaitDocument {
  contentType: string;
  body: string;
}

export interface BaitServer {
  /**
   * The URL of a served path (e.g. `/jwks.json`). `https` names the same plain-HTTP port: a target that
   * only follows https URLs still connects (and is counted) before its handshake fails.
   */
  url(path: string, scheme?: 'http' | 'https'): string;
  /** TCP connections accepted since start. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Serves `documents` by path on 127.0.0.1 (port 0); every other path is a 404 (still counted). */
export async function startBaitServer(documents: Record<string, BaitDocument>): Promise<BaitServer> {
  let connections = 0;
  const server = createServer((req, res) => {
    const doc = documents[(req.url ?? '/').split('?')[0] ?? '/'];
    if (req.method !== 'GET' || doc === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': doc.contentType, 'cache-control': 'no-store' }).end(doc.body);
  });
  server.on('connection', () => {
    connections += 1;
  });
  // A TLS ClientHello sent to this plain-HTTP server is a client error, not a harness failure.
  server.on('clientError', (_error, socket) => socket.destroy());
  const port = await listenOnLoopback(server);
  return {
    url: (path, scheme = 'http') => `${scheme}://127.0.0.1:${port}${path}`,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Listens on 127.0.0.1 at a port the system picks (the harness's own helper servers); resolves to the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
