/**
 * What a hostile description or profile can make the harness send, observed from outside: `serve` (the
 * built CLI, serve-support.ts) on 127.0.0.1 port 0, a logging proxy in front of it (node:http, port 0) that records every
 * request line, header and body and forwards it, and a catcher listener standing for "another origin" that
 * records whatever reaches it. The CLI runs against the proxy; the tests assert on what the proxy and the
 * catcher actually received. Only node:http and the built CLI: nothing of the harness's code, so its
 * mistakes cannot hide.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { runCli as runCliIn, type CliResult } from '../cli/support.js';
import { startServe } from './serve-support.js';
import { hostileServer } from './support.js';

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

/** A server on 127.0.0.1:0 (support.ts hostileServer) recording every request with its headers and body; `answer` writes the response. */
async function listen(answer: (seen: Seen, res: ServerResponse) => void): Promise<Listener> {
  const seen: Seen[] = [];
  const server = await hostileServer((req, res, body) => {
    const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') };
    seen.push(entry);
    answer(entry, res);
  });
  return { url: server.url, port: Number(new URL(server.url).port), seen, close: () => server.close() };
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
  /** The profile `serve` wrote, whole, as JSON. */
  profile: Record<string, unknown> & { baseUrl: string };
  dir: string;
  close(): Promise<void>;
}

/** `serve --hooks` in a child process (serve-support.ts), its whole profile read back. */
export async function startServeTarget(seed: string): Promise<ServeTarget> {
  const serve = await startServe(seed);
  const profile = JSON.parse(readFileSync(serve.profilePath, 'utf8')) as ServeTarget['profile'];
  return { profile, dir: serve.dir, close: () => serve.close() };
}

/** Writes a file into the target's folder and returns its path. */
export function writeIn(target: ServeTarget, name: string, text: string): string {
  const path = join(target.dir, name);
  writeFileSync(path, text);
  return path;
}

/** The built CLI in `cwd`, bounded (tests/cli/support.ts: no ACCESS_CONFORMANCE_* of the developer's leaks in). */
export function runCli(args: string[], cwd: string, timeoutMs = 240_000): Promise<CliResult> {
  return runCliIn(args, { cwd, timeoutMs });
}

/** The request lines a listener saw, `METHOD url`. */
export const lines = (listener: Listener): string[] => listener.seen.map((seen) => `${seen.method} ${seen.url}`);
