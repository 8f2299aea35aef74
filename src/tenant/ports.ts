/** Port helpers for the sandbox: a port nobody listens on, found by binding port 0 and releasing it. */
import { createServer } from 'node:net';

/**
 * A TCP port that was free a moment ago on `host`. Another process could take it before it is used; on a
 * test machine that is rare, and the sandbox uses it only for the JWKS server and the "unreachable" URL.
 */
export function pickFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
