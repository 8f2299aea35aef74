/**
 * What a hostile description or profile can make the harness send, observed from outside: `serve` (the
 * built CLI) on 127.0.0.1 port 0, a logging proxy in front of it (node:http, port 0) that records every
 * request line, header and body and forwards it, and a catcher listener standing for "another origin" that
 * records whatever reaches it. The CLI runs against the proxy; the tests assert on what the proxy and the
 * catcher actually received. Only node:http and node:child_process: nothing of the harness, so its
 * mistakes cannot hide.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'access-conformance.js');

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Listener {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1:0 recording every request; `answer` writes the response. */
async function listen(answer: (seen: Seen, res: import('node:http').ServerResponse) => void): Promise<Listener> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      answer(entry, res);
    });
    req.on('error', () => {});
    res.on('error', () => {});
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Another origin: answers every request with an empty page, and records it (a test expects it to see nothing). */
export function startCatcher(): Promise<Listener> {
  return listen((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"list":[],"nextPageToken":""}');
  });
}

/**
 * The logging proxy: forwards every request to `target` as it came and records it. `refuse`, when it
 * returns a response, answers instead of forwarding (a target stricter than `serve`, e.g. one that
 * requires a body field).
 */
export function startProxy(target: string, refuse: (seen: Seen) => { status: number; body: string } | undefined = () => undefined): Promise<Listener> {
  const upstream = new URL(target);
  return listen((seen, res) => {
    const refusal = refuse(seen);
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json' });
      res.end(refusal.body);
      return;
    }
    const headers = { ...seen.headers, host: upstream.host };
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: seen.method, path: seen.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    forward.setTimeout(20_000, () => forward.destroy());
    forward.end(seen.body);
  });
}

export interface ServeTarget {
  /** The profile `serve` wrote, as JSON. */
  profile: Record<string, unknown> & { baseUrl: string };
  dir: string;
  close(): Promise<void>;
}

/** `serve --hooks` in a child process, its profile read back. */
export async function startServeTarget(seed: string): Promise<ServeTarget> {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build:all` first (npm test does)');
  const dir = mkdtempSync(join(tmpdir(), 'ac-hostile-description-'));
  const profilePath = join(dir, 'sandbox.target.json');
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--hooks', '--seed', seed, '--profile-out', profilePath], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 45_000;
  while (!/Press Ctrl-C/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as ServeTarget['profile'];
  return {
    profile,
    dir,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a file into the target's folder and returns its path. */
export function writeIn(target: ServeTarget, name: string, text: string): string {
  const path = join(target.dir, name);
  writeFileSync(path, text);
  return path;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI, bounded; no ACCESS_CONFORMANCE_* of the developer's leaks in. */
export function runCli(args: string[], cwd: string, timeoutMs = 240_000): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('ACCESS_CONFORMANCE_') && key !== 'GITHUB_STEP_SUMMARY') env[key] = value;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The request lines a listener saw, `METHOD url`. */
export const lines = (listener: Listener): string[] => listener.seen.map((seen) => `${seen.method} ${seen.url}`);
