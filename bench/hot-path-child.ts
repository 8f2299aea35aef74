/**
 * Child processes of the hot-path bench (bench/hot-path-bench.ts), selected by argv[2]:
 * - `minimal`: a node:http server that reads the body and answers 200 `{}`: the cheapest target, so what
 *   the driver sends against it is the driver's own limit;
 * - `probe`: loads what a load worker loads and says ready (IPC), for the cost of starting a child process
 *   against a worker thread (the same file, run as a worker, says ready through its parent port).
 * Each prints or posts `ready` and stops when its parent disconnects (or closes its stdin).
 */
import { createServer } from 'node:http';
import { parentPort } from 'node:worker_threads';

const kind = process.argv[2] ?? (parentPort ? 'probe' : 'minimal');

if (kind === 'minimal') {
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}'));
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0, pid: process.pid });
  });
  process.on('disconnect', () => process.exit(0));
} else {
  // What load-worker.ts imports before it can send: the driver, the sources, the transport, the client.
  await Promise.all([import('../src/load/driver.js'), import('../src/load/scenario-source.js'), import('../src/load/load-transport.js'), import('../src/client/index.js')]);
  const usage = process.cpuUsage();
  if (parentPort) parentPort.postMessage({ ready: true });
  else {
    process.send?.({ ready: true, cpuMs: (usage.user + usage.system) / 1000 });
    process.on('disconnect', () => process.exit(0));
  }
}
