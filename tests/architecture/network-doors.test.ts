/**
 * One way out (issue 47): the harness's code (src/, suites/) sends a request to a target only through the
 * client's transport, whose guard (src/client/outbound.ts) holds every request to its rule. A module that
 * sends another way (undici's request/fetch/Pool/Client/Agent, the global fetch, node:http(s)'s request or
 * get, a node:net/tls connect, a child's curl) fails here unless it is one of the named other doors below,
 * each with its own rule, each named in docs/architecture.md. The doors that are libraries with their own HTTP
 * client (the container engine's testcontainers, keyless signing's Sigstore libraries) are held to their one
 * room by tests/architecture/rooms.test.ts and named here so the docs list them too.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { sourceFiles } from './import-graph.js';

/** Each module allowed to open a connection or send a request itself, and the rule it keeps. */
const DOORS: Record<string, string> = {
  'src/client/transport.ts': 'the one way out to a target: one undici Agent per client object; the guard (client/outbound.ts) allows or refuses every request before each attempt',
  'src/client/load-fetch.ts': 'the load driver\'s unmeasured requests: an undici Pool fixed to the load run\'s target origin when made, given paths only; GET, or POST to the token endpoint or a webhook listener (tests/client/firewall.test.ts)',
  'src/load/load-transport.ts': 'the load driver\'s wire: its own HTTP/1.1 over node:net/tls, to the one origin of the load run, the requests its sources build',
  'src/reference/jwks.ts': 'the reference (a target, not the harness) fetching the JWKS its JWT listener names, over https, bounded',
  'src/faults/support/jku-fetch.ts': 'a faulty target following a `jku` (the faults assertion-jku-followed and jwt-jku-followed): the behaviour under test, aimed by the checks at the harness\'s own bait server',
  'src/client/jwks-control.ts': 'a suite worker asking the harness\'s own JWKS control endpoint on 127.0.0.1 (PUT with its random token), never a target',
  'src/sandbox/inspector-page.ts': 'not the harness: the inspector page\'s own script, run in the developer\'s browser, polling the page\'s own feed on the sandbox that served it (its CSP allows connections to its own origin only)',
  'src/containers/sync-remove.ts': 'the container engine: a child that DELETEs the harness\'s own container through the engine\'s API on exit',
};

/** Libraries that make their own requests, and the one room that may import them (rooms.test.ts enforces the room). */
const LIBRARY_DOORS: Record<string, string> = {
  testcontainers: 'the container engine (src/containers)',
  sigstore: 'keyless signing: Fulcio, Rekor and the TUF repository (src/attest)',
  '@sigstore/sign': 'keyless signing (src/attest)',
};

/** What sending another way looks like in the source text. */
const SENDERS: Array<[string, RegExp]> = [
  ['a value import of undici', /^\s*import\s+(?!type\b)[^;]*\bfrom\s+'undici'/m],
  ['the global fetch', /(?<![.\w$])(?:globalThis\.)?fetch\(\s*[`'"\w$]/],
  ['node:http(s) request or get', /^\s*import\s+(?!type\b)[^;]*\b(request|get|Agent)\b[^;]*\bfrom\s+'(node:)?https?'/m],
  ['node:http(s) required', /require\(\s*['"](node:)?https?['"]\s*\)/],
  ['node:http2', /from\s+'(node:)?http2'/],
  ['a node:net/tls connection', /^\s*import\s+(?!type\b)[^;]*\b(connect|createConnection)\b[^;]*\bfrom\s+'(node:)?(net|tls)'/m],
  ['a child running curl or wget', /\b(spawn|execFile|exec)(Sync)?\(\s*['"](curl|wget|nc)['"]/],
];

/** The source without comments (a comment may name fetch) and without method declarations named fetch. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !/^\s*\/\//.test(line) && !/^\s*(async\s+)?fetch\([^)]*\)\s*[:{]/.test(line))
    .join('\n');
}

const root = packageRoot();
const sending = new Map<string, string[]>();
for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'suites'))]) {
  const text = code(readFileSync(file, 'utf8'));
  const found = SENDERS.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
  if (found.length > 0) sending.set(relative(root, file), found);
}

describe('architecture: one way out', () => {
  it('no module sends a request except through the client\'s transport and the named doors', () => {
    const strays = [...sending].filter(([file]) => !(file in DOORS)).map(([file, how]) => `${file}: ${how.join(', ')}`);
    expect(strays, 'send through createTargetClient (its rules: src/client/outbound.ts), or name a new door with its rule here and in docs/architecture.md').toEqual([]);
  });

  it('each named door still sends (a stale entry would hide a new one under its name)', () => {
    expect(Object.keys(DOORS).filter((file) => !sending.has(file))).toEqual([]);
  });

  it('the pattern finds what it looks for (a sender in a comment does not count, a real one does)', () => {
    expect(SENDERS.some(([, pattern]) => pattern.test(code('const r = await fetch(url);')))).toBe(true);
    expect(SENDERS.some(([, pattern]) => pattern.test(code('import { request } from \'node:http\';')))).toBe(true);
    expect(SENDERS.some(([, pattern]) => pattern.test(code('import { Pool } from \'undici\';')))).toBe(true);
    expect(SENDERS.some(([, pattern]) => pattern.test(code('// fetch(url) in a comment\nimport type { Agent } from \'undici\';')))).toBe(false);
  });

  it('docs/architecture.md names every door and every library door', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const missing = [...Object.keys(DOORS).map((file) => file.replace(/^src\//, '')), ...Object.keys(LIBRARY_DOORS)].filter((name) => !doc.includes(name));
    expect(missing).toEqual([]);
  });
});
