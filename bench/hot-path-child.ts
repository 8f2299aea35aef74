/**
 * Child processes of the hot-path bench (bench/hot-path-bench.ts), selected by argv[2]:
 * - `minimal`: the benches' node:net minimal server (minimal-http.ts, canned 200 `{}`), the saturated runs'
 *   second target (the native one, minimal-native.ts, is its own executable);
 * - `probe`: loads what a load worker loads and says ready (IPC), for the cost of starting a child process
 *   against a worker thread (the same file, run as a worker, says ready through its parent port);
 * - `spin SECONDS` (as a worker thread): HMACs over 1 KiB and JSON parses as fast as it goes, posting how
 *   many a second: a thread's speed alone and beside another, i.e. what a second busy core costs the first.
 * Each prints or posts `ready` and stops when its parent disconnects (or closes its stdin).
 */
import { createHmac } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { startMinimalServer } from './minimal-http.js';

const kind = process.argv[2] ?? (parentPort ? 'probe' : 'minimal');

if (kind === 'minimal') {
  const { port } = await startMinimalServer();
  process.send?.({ port, pid: process.pid });
  process.on('disconnect', () => process.exit(0));
} else if (kind === 'spin') {
  const until = performance.now() + Number(process.argv[3] ?? 2) * 1000;
  const body = Buffer.alloc(1024, 0x61);
  let ops = 0;
  let sink = 0;
  for (; performance.now() < until; ops += 1) {
    sink += createHmac('sha256', 'bench').update(body).digest()[0]! + (JSON.parse('{"id":"3f1c","n":[1,2,3]}') as { n: number[] }).n.length;
  }
  parentPort?.postMessage({ opsPerSecond: ops / Number(process.argv[3] ?? 2), sink });
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
