/**
 * Hostile targets on 127.0.0.1 (port 0) and the CLI run against them: a server whose every request goes to
 * a handler the test writes (hang, drip, reset, 429 storm, echo), a profile pointing at it, the CLI spawned
 * with a bound (and a signal sent mid-run when asked), and the four report files read and parsed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { material, type Material } from '../profile/support.js';

// Self-contained on purpose: the other test folders' helpers move between files; these tests need little.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../../fixtures/profiles/valid.target.json', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
}

/** The environment of a child: ours without ACCESS_CONFORMANCE_* (a developer's settings must not leak in). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ACCESS_CONFORMANCE_') && key !== 'GITHUB_STEP_SUMMARY') env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}


export interface HostileServer {
  url: string;
  /** Requests received so far (method and path). */
  requests: string[];
  close(): Promise<void>;
}

export type HostileHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A server on 127.0.0.1:0 that hands every request (with its body read) to `handler`. */
export async function hostileServer(handler: HostileHandler): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      handler(req, res, Buffer.concat(chunks));
    });
    // A client that gives up mid-request must not crash the test server.
    req.on('error', () => {});
    res.on('error', () => {});
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers GET / (so preflight passes), then hands everything else to `rest`. */
export function afterRoot(rest: HostileHandler): HostileHandler {
  return (req, res, body) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    rest(req, res, body);
  };
}

/** Never answers (the socket stays open until the server closes). */
export const hang: HostileHandler = () => {};

/** Writes a profile for `url` (no hooks, JWKS hosted elsewhere) in `dir`; returns its path and secrets. */
export async function hostileProfile(dir: string, url: string): Promise<{ path: string; material: Material }> {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { baseUrl: string; hooks?: unknown; webhooks: { jwt: { serveJwks?: unknown } } };
  doc.baseUrl = url;
  delete doc.hooks;
  delete doc.webhooks.jwt.serveJwks;
  const path = join(dir, 'target.json');
  await writeFile(path, JSON.stringify(doc, null, 2));
  return { path, material: await material() };
}

export interface SpawnOptions {
  env?: Record<string, string>;
  timeoutMs: number;
  /** Sends this signal once `when` holds for the output so far. */
  signal?: { name: 'SIGTERM' | 'SIGINT'; when: (stdout: string, stderr: string) => boolean };
}

/** The built CLI, bounded in time; its wall time in ms. */
export function runHostile(args: string[], options: SpawnOptions): Promise<CliResult & { wallMs: number }> {
  assertBuilt();
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const maybeSignal = (): void => {
      if (!options.signal || signalled || !options.signal.when(stdout, stderr)) return;
      signalled = true;
      child.kill(options.signal.name);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      maybeSignal();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      maybeSignal();
    });
    // The condition may hold without new output (a hung target, --quiet): checked on a timer too.
    const poll = options.signal ? setInterval(maybeSignal, 100) : undefined;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`access-conformance ${args.join(' ')} did not finish in ${options.timeoutMs} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      resolve({ code: code ?? (signal ? -1 : null), stdout, stderr, wallMs: Date.now() - started });
    });
  });
}

export const REPORT_FILES = ['report.json', 'junit.xml', 'summary.md', 'report.html'] as const;

export interface Reports {
  json: { verdict: { status: string; exitCode: number; reason: string }; results: Array<{ id: string; group: string; state: string; harnessError?: { code: string; message: string } }> } & Record<string, unknown>;
  junit: string;
  markdown: string;
  html: string;
  /** Every file's text, for leak searches. */
  texts: string[];
}

/** Tags open and close in order (enough to tell a truncated or garbled XML file from a whole one). */
function expectWellFormedXml(xml: string): void {
  expect(xml.startsWith('<?xml')).toBe(true);
  const stack: string[] = [];
  const withoutCdata = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutCdata.matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    if (selfClosing) continue;
    if (closing) expect(stack.pop(), `</${name}> closes what was opened`).toBe(name);
    else stack.push(name!);
  }
  expect(stack).toEqual([]);
}

/** All four reports exist and parse: JSON.parse, balanced XML, an HTML document, a Markdown text. */
export async function readReports(outDir: string): Promise<Reports> {
  for (const file of REPORT_FILES) expect(existsSync(join(outDir, file)), `${file} written`).toBe(true);
  const [jsonText, junit, markdown, html] = await Promise.all(REPORT_FILES.map((file) => readFile(join(outDir, file), 'utf8')));
  const json = JSON.parse(jsonText!) as Reports['json'];
  expectWellFormedXml(junit!);
  expect(html).toMatch(/^<!doctype html>/i);
  expect(html).toMatch(/<\/html>\s*$/i);
  expect(markdown!.trim().length).toBeGreaterThan(0);
  // The job page's summary of any hostile target stays under 100 KB (GitHub's cap is 1 MiB a step).
  expect(Buffer.byteLength(markdown!, 'utf8'), 'summary.md size').toBeLessThan(100_000);
  return { json, junit: junit!, markdown: markdown!, html: html!, texts: [jsonText!, junit!, markdown!, html!] };
}

export const ALL_REPORTERS = ['--reporter', 'json,junit,markdown,html'];
