/**
 * One dialect for every command: `run`, `serve`, `send` and `load` driven with the same values of
 * --timeout, --max-duration, --seed, --out, --strict and every boolean behave identically (the same typed
 * value from the same text, and the same run-time effect), and bad values exit 2 with a message naming the
 * flag (or the ACCESS_CONFORMANCE_* variable), before anything starts. An unknown flag gets "did you mean".
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_OPTIONS } from '../../src/cli/commands/load-options.js';
import { RUN_OPTIONS } from '../../src/cli/commands/run-options.js';
import { SEND_OPTIONS } from '../../src/cli/commands/send-options.js';
import { SERVE_OPTIONS } from '../../src/cli/commands/serve-options.js';
import { parseOptions, type OptionTable } from '../../src/cli/option-grammar.js';
import { startSandbox } from '../../src/tenant/index.js';
import { runCli, startServe } from './support.js';

const TABLES: Record<string, OptionTable> = { run: RUN_OPTIONS, serve: SERVE_OPTIONS, send: SEND_OPTIONS, load: LOAD_OPTIONS };

/** The commands whose table takes `flag`. */
function takers(flag: string): string[] {
  return Object.entries(TABLES)
    .filter(([, table]) => flag in table)
    .map(([name]) => name);
}

function booleans(table: OptionTable): string[] {
  return Object.entries(table)
    .filter(([, row]) => row.yargs.type === 'boolean')
    .map(([name]) => name);
}

describe('which command takes which shared flag', () => {
  it('--timeout, --max-duration, --seed and --out: all four; --strict: all but serve (it judges nothing: shared-options.ts)', () => {
    for (const flag of ['timeout', 'max-duration', 'seed', 'out']) expect(takers(flag), `--${flag}`).toEqual(['run', 'serve', 'send', 'load']);
    expect(takers('strict')).toEqual(['run', 'send', 'load']);
  });

  it('serve --strict is a usage error that says why, not a bare "Unknown argument"', async () => {
    const result = await runCli(['serve', '--strict']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--strict: serve judges nothing');
    expect(result.stderr).toContain('--strict applies to run, send and load');
  });
});

describe('the same text gives the same value in every command', () => {
  const cases: Array<[string, string, unknown]> = [
    ['timeout', '30s', 30_000],
    ['timeout', '1m30s', 90_000],
    ['timeout', '250ms', 250],
    ['max-duration', '2m', 120_000],
    ['seed', ' 5eed ', '5eed'],
    ['out', 'build/x', 'build/x'],
  ];
  for (const [flag, text, value] of cases) {
    it(`--${flag} ${text}`, () => {
      expect(takers(flag).length, 'a shared flag is taken by several commands').toBeGreaterThan(1);
      for (const command of takers(flag)) {
        const parsed = parseOptions(TABLES[command]!, { [flag]: text }) as Record<string, unknown>;
        expect(parsed[flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())], `${command} --${flag}`).toEqual(value);
      }
    });
  }

  it('every boolean of every command reads true/false, 1/0, yes/no, on/off alike; absent is its default', () => {
    for (const [command, table] of Object.entries(TABLES)) {
      for (const flag of booleans(table)) {
        const key = flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
        for (const [word, value] of [['yes', true], ['ON', true], ['1', true], ['true', true], ['no', false], ['Off', false], ['0', false], ['FALSE', false]] as const) {
          expect((parseOptions(table, { [flag]: word }) as Record<string, unknown>)[key], `${command} --${flag}=${word}`).toBe(value);
        }
        expect((parseOptions(table, {}) as Record<string, unknown>)[key]).toBe(false);
      }
    }
  });
});

describe('bad values exit 2 naming the flag, in every command that takes it', { timeout: 120_000 }, () => {
  const bad: Array<[string, string, string]> = [
    ['timeout', '30', '--timeout 30: add a unit, e.g. 30s or 30ms'],
    ['timeout', 'soon', '"soon" is not a duration: --timeout must be a duration'],
    ['max-duration', '120000', '--max-duration 120000: add a unit'],
    ['seed', '', '--seed needs a value'],
    ['out', '', '--out needs a value'],
  ];
  for (const [flag, value, message] of bad) {
    for (const command of takers(flag)) {
      it(`${command} --${flag}=${JSON.stringify(value)}`, async () => {
        const result = await runCli([command, `--${flag}=${value}`], { timeoutMs: 30_000 });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`error[USAGE] at --${flag}: `);
        expect(result.stderr).toContain(message);
      });
    }
  }

  for (const [command, table] of Object.entries(TABLES)) {
    for (const flag of booleans(table)) {
      it(`${command} --${flag}=maybe`, async () => {
        const result = await runCli([command, `--${flag}=maybe`], { timeoutMs: 30_000 });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`error[USAGE] at --${flag}: --${flag} takes true/false, 1/0, yes/no or on/off; got "maybe"`);
      });
    }
  }

  it('a boolean variable outside the grammar names the variable', async () => {
    const result = await runCli(['run'], { env: { ACCESS_CONFORMANCE_STRICT: 'maybe' }, timeoutMs: 30_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[USAGE] at ACCESS_CONFORMANCE_STRICT: ACCESS_CONFORMANCE_STRICT takes true/false');
  });

  it('an unknown flag: did you mean the nearest one', async () => {
    for (const [command, typo, near] of [['run', '--reportr', '--reporter'], ['load', '--durration', '--duration'], ['serve', '--profile-ot', '--profile-out'], ['send', '--listner', '--listener']]) {
      const result = await runCli([command!, typo!, 'x'], { timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${typo}: did you mean ${near}?`);
    }
  });
});

describe('the same values at run time: run, serve, send and load', { timeout: 120_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ac-same-flags-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const common = ['--timeout', '30s', '--seed', 'same-seed'];

  it('run: --timeout 30s --max-duration 1m --strict=yes --out: the report holds 30000 ms, 60000 ms, strict, the seed', async () => {
    const out = join(dir, 'run');
    const result = await runCli(['run', '--only', 'TOK-01', ...common, '--max-duration', '1m', '--strict=yes', '--out', out, '--reporter', 'json'], { timeoutMs: 90_000 });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { seed: string; strict: boolean; settings: { timeoutMs: number; maxDurationMs: number } };
    expect(report).toMatchObject({ seed: 'same-seed', strict: true, settings: { timeoutMs: 30_000, maxDurationMs: 60_000 } });
  });

  it('serve --out --timeout 30s --max-duration 5s --hooks=on --tls=no: the profile in --out, a 30 s JWKS wait, stops by itself; send --dry-run=YES --out with the same seed twice builds the same body', async () => {
    const profile = join(dir, 'serve', 'sandbox.target.json');
    const serve = await startServe(['--max-duration', '5s', ...common, '--hooks=on', '--tls=no', '--out', join(dir, 'serve')], profile);
    const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
    expect(serve.output()).toContain('reference sandbox (seed same-seed)');
    expect(serve.output()).toContain('hooks:     on');
    expect(serve.output()).toContain('the reference waits up to 30 s for a JWKS document (--timeout)');
    const send = async (): Promise<string> => {
      const result = await runCli(['send', '--profile', profile, '--listener', 'hmac', '--dry-run=YES', ...common, '--out', join(dir, 'send-dry')], { timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(0);
      const written = JSON.parse(await readFile(join(dir, 'send-dry', 'send-exchange.json'), 'utf8')) as { dryRun: boolean; exchanges: Array<{ request: { url: string } }> };
      expect(written.dryRun).toBe(true);
      // The clock hook is the one exchange of a dry run against a target with hooks; its token is redacted.
      expect(written.exchanges.map((e) => new URL(e.request.url).pathname)).toEqual(['/__hooks/v1/clock']);
      const hooksToken = (JSON.parse(await readFile(profile, 'utf8')) as { hooks: { token: string } }).hooks.token;
      expect(await readFile(join(dir, 'send-dry', 'send-exchange.json'), 'utf8')).not.toContain(hooksToken);
      // occurredAt is "recent" from now (the body generator's, src/client/webhooks.ts): the rest is the seed's.
      const { occurredAt: _now, ...seeded } = JSON.parse(/--data-binary '([^']*)'/.exec(result.stdout)![1]!) as Record<string, unknown>;
      return JSON.stringify(seeded);
    };
    expect(await send()).toBe(await send());
    expect(await exited).toBe(0);
    expect(serve.output()).toContain('--max-duration reached after 5 s');
  });

  it('send --strict, --out, --max-duration against serve --fault content-type-optional (it accepts a request without Content-Type)', async () => {
    const out = join(dir, 'send');
    const profile = join(dir, 'faulty', 'sandbox.target.json');
    const serve = await startServe([...common, '--fault', 'content-type-optional', '--out', join(dir, 'faulty')], profile);
    try {
      const send = (...args: string[]) => runCli(['send', '--profile', profile, '--listener', 'hmac', ...common, '--out', out, ...args], { timeoutMs: 30_000 });
      const mismatch = 'not the answer service.md gives for this request: expected 400 (--break content-type)';
      // The refusal service.md gives: 2xx-or-not without --strict, the expected status with it.
      const forged = await send('--break', 'signature');
      expect([forged.code, forged.stdout]).toEqual([1, expect.stringContaining('HTTP 401')]);
      expect(forged.stdout).not.toContain('not the answer');
      expect((await send('--break', 'signature', '--strict=yes')).code).toBe(0);
      // The fault's 200: a mismatch, printed either way, exit 1 only with --strict.
      const lenient = await send('--break', 'content-type', '--strict=off');
      expect([lenient.code, lenient.stdout]).toEqual([0, expect.stringContaining(mismatch)]);
      const strict = await send('--break', 'content-type', '--strict');
      expect([strict.code, strict.stdout]).toEqual([1, expect.stringContaining(mismatch)]);
      const written = JSON.parse(await readFile(join(out, 'send-exchange.json'), 'utf8')) as { expected: string; exchanges: Array<{ response?: { status: number } }> };
      expect(written.expected).toBe('400 (--break content-type)');
      expect(written.exchanges.at(-1)?.response?.status).toBe(200);
      expect((await send('--strict=1')).code).toBe(0);
    } finally {
      await serve.stop();
    }
  });

  // The deadline counts from the command's start (its supervisor's), process start-up included: 4 s leave a
  // loaded machine time to reach the request, and are still long before --timeout 30s.
  it('send --max-duration 4s against a target that never answers: DEADLINE, exit 2, long before --timeout 30s, the exchange still written', async () => {
    const sockets = new Set<Socket>();
    const hung = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const port = (hung.address() as { port: number }).port;
    // A sandbox's profile (hooks on: the clock hook is read first), pointed at the server that never answers.
    const sandbox = await startSandbox({ hooks: true, profileDir: join(dir, 'hung') });
    await sandbox.close();
    const original = await readFile(sandbox.profilePath, 'utf8');
    const origin = sandbox.baseUrl;
    const hungProfile = join(dir, 'hung', 'hung.target.json');
    await writeFile(hungProfile, original.replaceAll(origin, `http://127.0.0.1:${port}`));
    try {
      const out = join(dir, 'send-hung');
      const started = Date.now();
      const result = await runCli(['send', '--profile', hungProfile, '--listener', 'hmac', '--data', '{}', ...common, '--max-duration', '4s', '--out', out], { timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('error[DEADLINE] at --max-duration: send did not finish within 4 s (--max-duration) in phase "sending"');
      expect(Date.now() - started).toBeLessThan(20_000);
      const written = JSON.parse(await readFile(join(out, 'send-exchange.json'), 'utf8')) as { exchanges: Array<{ response?: unknown }> };
      expect(written.exchanges.length).toBeGreaterThan(0);
      expect(written.exchanges.every((e) => e.response === undefined)).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });

  it('load --timeout 30s --quiet=1 --strict=on --out: exit 0, the report holds 30000 ms and the strict thresholds', async () => {
    const out = join(dir, 'load');
    const result = await runCli(['load', '--rate', '20', '--duration', '1s', ...common, '--quiet=1', '--strict=on', '--out', out], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/\/s \(asked/);
    const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as { config: { timeoutMs: number; thresholds: string[] }; exitCode: number };
    expect(report.config.timeoutMs).toBe(30_000);
    expect(report.config.thresholds).toEqual(['errors<=0%', 'dropped<=0%']);
    expect(report.exitCode).toBe(0);
    expect(existsSync(join(out, 'load-webhook-hmac.html'))).toBe(true);
  });

  it('load --max-duration 3s on a 60 s run: stops at the deadline, exit 2, a report that says so', async () => {
    const out = join(dir, 'load-deadline');
    const started = Date.now();
    const result = await runCli(['load', '--rate', '20', '--duration', '60s', '--max-duration', '3s', ...common, '--quiet', '--out', out], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.stdout).toContain('interrupted at its deadline (--max-duration)');
    const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as { exitCode: number; interruption: unknown };
    expect(report.exitCode).toBe(2);
    expect(report.interruption).toMatchObject({ deadline: true, exitCode: 2 });
  });
});
