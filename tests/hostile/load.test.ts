/**
 * `load` against hostile targets: the duplicates scenario's priming is bounded by --timeout, the body cap
 * and Ctrl-C (it used a fetch with none of them), and a run where every request fails exits 1 without any
 * --threshold (the default error threshold).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { afterRoot, hang, hostileProfile, hostileServer, runHostile, type HostileHandler, type HostileServer } from './support.js';

let dir: string;
let server: HostileServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-hostile-load-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function load(handler: HostileHandler, args: string[], signal?: { name: 'SIGINT' | 'SIGTERM'; afterMs: number }) {
  server = await hostileServer(handler);
  const { path, material } = await hostileProfile(dir, server.url);
  const started = Date.now();
  return runHostile(['load', '--profile', path, '--out', join(dir, 'reports'), '--quiet', ...args], {
    env: material.env,
    timeoutMs: 60_000,
    ...(signal ? { signal: { name: signal.name, when: () => Date.now() - started > signal.afterMs && server!.requests.length > 0 } } : {}),
  });
}

describe('load --scenario webhook-duplicates against a hung target', () => {
  it('priming times out after --timeout: exit 2 naming the timeout', async () => {
    const result = await load(afterRoot(hang), ['--scenario', 'webhook-duplicates', '--rate', '10', '--duration', '2s', '--timeout', '1s']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[TIMEOUT]');
    expect(result.wallMs).toBeLessThan(20_000);
  }, 70_000);

  it('Ctrl-C during priming stops it at once (a long --timeout does not hold it), exit 130 with a report saying so', async () => {
    // The signal is sent once the hung target holds a priming request; output only comes at the end.
    const result = await load(afterRoot(hang), ['--scenario', 'webhook-duplicates', '--rate', '10', '--duration', '2s', '--timeout', '60s'], { name: 'SIGINT', afterMs: 1500 });
    expect(result.code, result.stderr).toBe(130);
    // The step is named: the duplicates scenario was priming its tokens and bodies.
    expect(result.stdout).toContain('INTERRUPTED: interrupted by SIGINT while priming (tokens, bodies); nothing measured (exit 130)');
    expect(result.wallMs).toBeLessThan(20_000);
  }, 70_000);

  it('a priming answer past the body cap fails instead of filling memory', async () => {
    const huge: HostileHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 64 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    };
    const result = await load(huge, ['--scenario', 'webhook-duplicates', '--rate', '10', '--duration', '2s', '--timeout', '20s']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[RESPONSE_TOO_LARGE]');
  }, 70_000);
});

describe('load without --threshold', () => {
  it('exits 1 when every request fails (the default errors<1% threshold)', async () => {
    const refuse: HostileHandler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('no');
    };
    const result = await load(refuse, ['--scenario', 'webhook-hmac', '--rate', '20', '--duration', '1s', '--timeout', '2s']);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    expect(result.stdout).toContain('errors<1%');
  }, 70_000);

  it('errors<=100% turns the default off', async () => {
    const refuse: HostileHandler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('no');
    };
    const result = await load(refuse, ['--scenario', 'webhook-hmac', '--rate', '20', '--duration', '1s', '--timeout', '2s', '--threshold', 'errors<=100%']);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  }, 70_000);
});

describe('load flags within their real range', () => {
  for (const [args, message] of [
    [['--rate', '2000000', '--duration', '1s'], /--rate must be at most 1000000/],
    [['--rate', '10', '--duration', '1s', '--connections', '1000000'], /--connections must be a whole number from 1 to 10000/],
    [['--rate', '10', '--duration', '1s', '--timeout', '3000000000ms'], /--timeout must be at most/],
    [['--rate', '10', '--duration', '30d'], /not a duration/],
  ] as const) {
    it(args.join(' '), async () => {
      const result = await runHostile(['load', ...args], { timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(2);
      // Flag values are usage errors in every command (one grammar), whatever the command.
      expect(result.stderr).toContain('error[USAGE]');
      expect(result.stderr).toMatch(message);
    }, 40_000);
  }
});
