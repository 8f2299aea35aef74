/**
 * What `load` shows while it runs, tried as an SRE would: `--metrics-listen` scraped twice a few seconds
 * apart (the counters grow, the latency histogram fills); `--stream` read line by line against its schema,
 * and what a SIGKILL leaves of it; `--abort-on-fail` against `serve` (the run ends within 2 s of its grace
 * period, exit 1, every report written); bad values refused with exit 2 before any request is sent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaValidator } from '../reporters/validators.js';
import { cli, fixtureTarget, killTree, startCli, type RunningCli } from './support/load-cli.js';

const target = fixtureTarget('ac-load-live-');

/** Samples of a Prometheus text exposition: `name{labels}` → value (comments skipped). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    out.set(match[1], Number(match[2]));
  }
  return out;
}

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whole lines in a file now (read synchronously: called in a polling loop). */
function lineCount(path: string): number {
  return (readFileSync(path, 'utf8').match(/\n/g) ?? []).length;
}

const PREFIX = 'access_conformance_load_';
const S = '{scenario="webhook-hmac"}';

describe('load --metrics-listen', () => {
  it('serves Prometheus text while the load runs: two scrapes 3 s apart show the counters growing and a latency histogram', async () => {
    const out = join(target.work, 'metrics');
    let run: RunningCli | undefined;
    try {
      run = startCli(['load', '--profile', target.profilePath, '--rate', '50', '--duration', '30s', '--metrics-listen', '127.0.0.1:0', '--out', out], undefined, 60_000);
      const running = run;
      await until('the metrics address and two progress lines', () => /metrics: http:\/\/127\.0\.0\.1:\d+\/metrics\n/.test(running.stderr()) && (running.stderr().match(/\/s \(asked/g) ?? []).length >= 2);
      const url = /metrics: (\S+)\n/.exec(run.stderr())![1]!;
      const first = await fetch(url);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const a = samples(await first.text());
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const b = samples(await (await fetch(url)).text());

      const requests = `${PREFIX}requests_total{status="200",scenario="webhook-hmac"}`;
      expect(a.get(requests)).toBeGreaterThan(0);
      // 50/s for 3 s: well over 100 more (bounded below loosely for a busy machine).
      expect(b.get(requests)! - a.get(requests)!).toBeGreaterThan(100);
      expect(b.get(`${PREFIX}sent_total${S}`)!).toBeGreaterThan(a.get(`${PREFIX}sent_total${S}`)!);
      expect(b.get(`${PREFIX}dropped_total${S}`)).toBe(0);
      expect(b.get(`${PREFIX}errors_total{kind="unexpected_status",scenario="webhook-hmac"}`)).toBe(0);
      expect(b.has(`${PREFIX}in_flight${S}`)).toBe(true);

      // The histogram: cumulative buckets, +Inf = count = requests answered, sum of seconds > 0.
      const count = (m: Map<string, number>): number => m.get(`${PREFIX}request_duration_seconds_count${S}`)!;
      expect(count(b)).toBeGreaterThan(count(a));
      expect(count(b)).toBe(b.get(requests));
      const buckets = [...b.entries()].filter(([k]) => k.startsWith(`${PREFIX}request_duration_seconds_bucket{`));
      expect(buckets.length).toBeGreaterThanOrEqual(10);
      const values = buckets.map(([, v]) => v);
      expect(values).toEqual([...values].sort((x, y) => x - y));
      expect(b.get(`${PREFIX}request_duration_seconds_bucket{le="+Inf",scenario="webhook-hmac"}`)).toBe(count(b));
      expect(b.get(`${PREFIX}request_duration_seconds_sum${S}`)).toBeGreaterThan(0);
      // The process figures an SRE watches on the load generator itself.
      expect(b.has(`${PREFIX}process_cpu_seconds_total${S}`)).toBe(true);

      expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
      run.child.kill('SIGINT');
      const ended = await run.done;
      expect(ended.code, ended.stderr).toBe(130);
      // The endpoint closes with the run.
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      run?.child.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses a bad HOST:PORT, a port out of range and a taken port with exit 2, before sending', async () => {
    const base = ['load', '--profile', target.profilePath, '--rate', '5', '--duration', '1s', '--out', join(target.work, 'bad')];
    const noHost = await cli([...base, '--metrics-listen', '9464']);
    expect(noHost.code).toBe(2);
    expect(noHost.stderr).toContain('error[LOAD_CONFIG] at --metrics-listen: --metrics-listen "9464" is not HOST:PORT');
    const range = await cli([...base, '--metrics-listen', '127.0.0.1:70000']);
    expect(range.code).toBe(2);
    expect(range.stderr).toContain('port 70000 is out of range');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const busy = await cli([...base, '--metrics-listen', `127.0.0.1:${port}`]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`--metrics-listen 127.0.0.1:${port}: cannot listen: the port is in use`);
      expect(busy.stdout).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});

interface StreamLine {
  t: number;
  seconds: number;
  final: boolean;
  interval: { sent: number; completed: number };
  total: { sent: number; completed: number; errors: number; statuses: Record<string, number> };
  thresholds: Array<{ expression: string; ok: boolean }>;
}

/** The stream file's lines, each checked against schemas/load-stream.schema.json. */
async function streamLines(path: string): Promise<StreamLine[]> {
  const validate = await schemaValidator('load-stream.schema.json');
  const text = await readFile(path, 'utf8');
  // Whole lines only: a line is written in one write, so the file never ends inside one.
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const value = JSON.parse(line) as StreamLine;
      expect(validate(value), line).toEqual([]);
      return value;
    });
}

describe('load --stream', () => {
  it('appends one line valid against its schema a second, then a final one whose totals are the report\'s', async () => {
    const out = join(target.work, 'stream');
    const path = join(out, 'stream.jsonl');
    const result = await cli(['load', '--profile', target.profilePath, '--rate', '50', '--duration', '4s', '--stream', path, '--out', out, '--threshold', 'p99<10s', '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    const lines = await streamLines(path);
    const seconds = lines.filter((line) => !line.final);
    const last = lines.at(-1)!;
    expect(lines.filter((line) => line.final)).toEqual([last]);
    // 4 s of sending: a line at each whole second (the 4th may close after sending stopped, as the final).
    expect(seconds.length).toBeGreaterThanOrEqual(3);
    expect(seconds.length).toBeLessThanOrEqual(5);
    seconds.forEach((line, i) => {
      expect(line.t).toBeCloseTo(i + 1, 0);
      expect(line.seconds).toBeGreaterThan(0.8);
      expect(line.seconds).toBeLessThan(1.6);
    });
    expect(lines.reduce((n, line) => n + line.interval.sent, 0)).toBe(200);
    const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as { counts: { sent: number; completed: number; errors: number; statuses: Record<string, number> } };
    expect(last.total).toMatchObject({ sent: report.counts.sent, completed: report.counts.completed, errors: report.counts.errors, statuses: report.counts.statuses });
    expect(last.thresholds.map((t) => t.expression)).toEqual(['p99<10s', 'errors<1%']);
  }, 60_000);

  it('keeps every line written before a SIGKILL', async () => {
    const out = join(target.work, 'killed');
    const path = join(out, 'stream.jsonl');
    const run = startCli(['load', '--profile', target.profilePath, '--rate', '50', '--duration', '60s', '--stream', path, '--out', out, '--quiet'], undefined, 60_000);
    try {
      let before = 0;
      await until('three stream lines', () => {
        before = existsSync(path) ? lineCount(path) : 0;
        return before >= 3;
      });
      // The supervisor and the child that runs the load, both at once (killTree says why).
      killTree(run.child.pid!);
      const ended = await run.done;
      expect(ended.signal).toBe('SIGKILL');
      const lines = await streamLines(path);
      expect(lines.length).toBeGreaterThanOrEqual(before);
      lines.forEach((line, i) => {
        expect(line.final).toBe(false);
        expect(line.t).toBeCloseTo(i + 1, 0);
      });
      expect(lines.at(-1)!.total.sent).toBeGreaterThanOrEqual(100);
      // Killed: no report, but the stream holds what was measured.
      expect(existsSync(join(out, 'load-webhook-hmac.json'))).toBe(false);
    } finally {
      killTree(run.child.pid!);
    }
  }, 60_000);

  it('refuses a file it cannot open with exit 2, before sending', async () => {
    const notAFolder = join(target.work, 'plain-file');
    await writeFile(notAFolder, 'x');
    const result = await cli(['load', '--profile', target.profilePath, '--rate', '5', '--duration', '1s', '--stream', join(notAFolder, 'stream.jsonl'), '--out', join(target.work, 'bad-stream')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error[LOAD_CONFIG] at --stream');
    expect(result.stderr).toContain('cannot open it for appending');
    expect(result.stdout).toBe('');
  }, 30_000);
});

describe('load --abort-on-fail', () => {
  it("load --duration 90s --threshold 'p99<1us' --abort-on-fail against serve: ends within 2 s of the 10 s grace, exit 1, every report written", async () => {
    const out = join(target.work, 'abort');
    const profile = join(out, 'serve.target.json');
    // `serve` as a user starts it, in its own process, on 127.0.0.1 and a free port.
    const serve = startCli(['serve', '--profile-out', profile, '--out', out, '--seed', 'abort'], undefined, 120_000);
    try {
      await until('serve to write its profile', () => existsSync(profile) && /http:\/\/127\.0\.0\.1:\d+/.test(serve.stdout() + serve.stderr()), 60_000);
      const stream = join(out, 'stream.jsonl');
      // p99 < 1 µs cannot hold for any answer over a socket: crossed from the first second on. (The issue's
      // 'p99<1ms' may hold on an idle machine; this one is certain, and exercises the same path.)
      const run = startCli(['load', '--profile', profile, '--rate', '20', '--duration', '90s', '--threshold', 'p99<1us', '--abort-on-fail', '--stream', stream, '--out', out, '--quiet'], undefined, 60_000);
      const ended = await run.done;
      expect(ended.code, ended.stderr).toBe(1);
      const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as {
        stopReason: string;
        elapsedSeconds: number;
        exitCode: number;
        passed: boolean;
        thresholdAbort: { threshold: string; atSeconds: number; graceSeconds: number; actual: number };
        thresholds: Array<{ expression: string; ok: boolean }>;
        config: { abort: { all: boolean; graceMs: number; thresholds: string[] } };
        counts: { sent: number; planned: number };
      };
      expect(report.stopReason).toBe('threshold-crossed');
      expect(report.exitCode).toBe(1);
      expect(report.passed).toBe(false);
      expect(report.thresholdAbort).toMatchObject({ threshold: 'p99<1us', graceSeconds: 10 });
      expect(report.thresholdAbort.atSeconds).toBeGreaterThanOrEqual(10);
      // Within 2 s of the grace: found crossed at the first check past it, drained, done.
      expect(report.elapsedSeconds).toBeLessThan(12);
      expect(report.counts.sent).toBeGreaterThanOrEqual(180);
      expect(report.counts.sent).toBeLessThan(report.counts.planned);
      expect(report.config.abort).toEqual({ all: true, graceMs: 10_000, thresholds: ['p99<1us', 'errors<1%'] });
      expect(report.thresholds.find((t) => t.expression === 'p99<1us')?.ok).toBe(false);
      expect(ended.stdout).toMatch(/ABORTED: threshold p99<1us crossed at 1[01]\.\d s \(actual [\d.]+ ms; grace 10 s\): the run stopped early/);
      expect(ended.stdout).toContain('threshold  FAIL p99<1us');
      expect(await readFile(join(out, 'load-webhook-hmac.html'), 'utf8')).toContain('Aborted: threshold p99&lt;1us crossed at');
      const lines = await streamLines(stream);
      expect(lines.at(-1)!.final).toBe(true);
      expect(lines.filter((line) => !line.final).length).toBeGreaterThanOrEqual(9);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.done.catch(() => undefined);
    }
  }, 120_000);

  it('a threshold with :abort stops the run alone, past --abort-after; the others do not', async () => {
    const out = join(target.work, 'abort-one');
    const result = await cli(['load', '--profile', target.profilePath, '--rate', '20', '--duration', '30s', '--threshold', 'p99<1us:abort', '--threshold', 'max<1us', '--abort-after', '2s', '--out', out, '--quiet'], undefined, 40_000);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as { elapsedSeconds: number; thresholdAbort: { threshold: string; atSeconds: number }; config: { abort: { thresholds: string[] } } };
    expect(report.thresholdAbort.threshold).toBe('p99<1us:abort');
    expect(report.thresholdAbort.atSeconds).toBeGreaterThanOrEqual(2);
    expect(report.elapsedSeconds).toBeLessThan(4);
    expect(report.config.abort.thresholds).toEqual(['p99<1us:abort']);
  }, 60_000);

  it('refuses --abort-after with nothing to abort, a bad grace, and rate with :abort, with exit 2', async () => {
    const base = ['load', '--profile', target.profilePath, '--rate', '5', '--duration', '1s', '--out', join(target.work, 'bad-abort')];
    const alone = await cli([...base, '--abort-after', '5s']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('error[LOAD_CONFIG] at --abort-after');
    const bare = await cli([...base, '--abort-on-fail', '--abort-after', '30']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--abort-after 30: add a unit');
    const rate = await cli([...base, '--threshold', 'rate>=5:abort']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toContain('it cannot abort');
  }, 60_000);
});
