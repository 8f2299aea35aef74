/**
 * The k6 lane's shared set-up: the k6 to use (or why none), `serve --hooks` with its profile, scratch
 * folders, and a target that answers every request after a fixed sleep.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from '../../cli/support.js';
import { findK6, SUPPORTED_K6, supportedK6, type K6Found } from './k6-bin.js';

export interface Lane {
  found: K6Found;
  dir: string;
  profilePath: string;
  /** A fresh folder for one run's summary files. */
  runDir(name: string): string;
  close(): Promise<void>;
}

/** Finds k6 and, when there is one, starts `serve --hooks`. Says loudly why the lane skips. */
export async function startLane(name: string): Promise<Lane> {
  const found = await findK6();
  const dir = mkdtempSync(join(tmpdir(), `ac-${name}-`));
  const profilePath = join(dir, 'sandbox.target.json');
  let stop = async (): Promise<void> => {};
  if (found.k6) {
    const serve = await startServe(['--hooks', '--seed', name, '--profile-out', profilePath], profilePath);
    stop = serve.stop;
    process.stdout.write(`k6 lane (${name}): ${found.k6.version} from ${found.k6.source} (${found.k6.path})\n`);
    if (!supportedK6(found.k6.version)) {
      process.stderr.write(`\n######## k6 LANE (${name}): ${found.k6.version} is outside the range the scripts support (${SUPPORTED_K6.text}); a failure may be the version's ########\n\n`);
    }
  } else {
    process.stderr.write(`\n######## k6 LANE SKIPPED (${name}): ${found.skip}. Set K6_BIN=/path/to/k6 or put k6 on PATH to run it. ########\n\n`);
  }
  return {
    found,
    dir,
    profilePath,
    runDir(run: string) {
      const path = join(dir, run);
      mkdirSync(path, { recursive: true });
      return path;
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A target on 127.0.0.1 that answers 200 `{}` to anything, `sleepMs` after the request ended. */
export async function startSleepyTarget(sleepMs: number): Promise<{ baseUrl: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}');
      }, sleepMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
