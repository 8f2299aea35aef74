/** Port helpers for the sandbox: a port nobody listens on now, for a server the harness starts later. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { HarnessError } from '../errors.js';

/**
 * The window the sandbox picks its ports from: below the kernel's ephemeral range. A port handed out by
 * `listen(0)` sits inside that range, where every outbound connection also takes its local port; on a busy
 * run (the fault runner opens thousands of connections) one of them took the JWKS port between the pick
 * and the JWKS server's bind (EADDRINUSE, seen in CI). Nothing auto-binds below the range, so a port found
 * free there stays free unless someone listens on it on purpose.
 */
const FALLBACK_WINDOW: readonly [number, number] = [20_000, 32_768];

function pickWindow(): readonly [number, number] {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    // A kernel tuned to an unusually low range leaves no room below it: fall back to the usual window.
    if (low !== undefined && Number.isInteger(low) && low > 12_000) return [Math.max(10_000, low - 12_768), low];
  } catch {
    // Not Linux: macOS and Windows start their ephemeral ranges at 49152, above the fallback window.
  }
  return FALLBACK_WINDOW;
}

const WINDOW = pickWindow();
/** Ports this process has handed out, so two picks in one process never collide. */
const handedOut = new Set<number>();

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port that nothing listens on at `host`, chosen at random below the ephemeral range (see WINDOW).
 * Another process could still start listening on it before it is used; picking at random from thousands
 * of ports makes two harnesses choosing the same one in the same instant vanishingly rare.
 */
export async function pickFreePort(host = '127.0.0.1'): Promise<number> {
  const [low, high] = WINDOW;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port)) continue;
    // Reserved before the check, so that two picks running at once never both return it.
    handedOut.add(port);
    if (await canListen(port, host)) return port;
    handedOut.delete(port);
  }
  // Both ports picked here end up in JWKS URLs (the served one and the unreachable one).
  throw new HarnessError('JWKS_SERVER', `no free TCP port on ${host} for the sandbox's JWKS URLs between ${low} and ${high - 1} after 200 tries`, {
    hint: 'Something listens on most ports of that range; stop some of those listeners and retry.',
  });
}
