/**
 * `load --workers 2` from the built CLI, as users run it, against fixture servers on 127.0.0.1 port 0: one
 * merged report whose counts match what the server received (each request counted once), the merged
 * timeline and `--stream` adding up to the schedule, errors and their samples counted once, a threshold
 * judged on the merged figures (exit 1), `--abort-on-fail` stopping every worker, Ctrl-C exiting 130 with
 * the partial report, `--metrics-listen` serving the merged counts, and requests dropped at the merged
 * max in flight counted once, in the JSON and the HTML report alike. Every run is bounded.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStallingServer, startStatusServer, type FixtureServer } from './support/fixtures.js';
import { cli, startCli, writeFixtureProfile } from './support/load-cli.js';

interface Report {
  stopReason: string;
  exitCode: number;
  interrupted: boolean;
  counts: { planned: number; sent: number; completed: number; errors: number; dropped: number; cancelled: number; statuses: Record<string, number> };
  timeline: Array<{ sent: number; completed: number; asked: number; dropped: number }>;
  thresholds: Array<{ expression: string; ok: boolean }>;
  errorSamples: Array<{ kind: string }>;
  details: Record<string, string | number>;
  driver: { workers: number; busy: number[]; saturated: boolean };
  latencyMs: { count: number; p50: number; p99: number };
}

let work = '';
const servers: Record<'ok' | 'failing', { server?: FixtureServer; profile: string }> = { ok: { profile: '' }, failing: { profile: '' } };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ac-load-workers-'));
  for (const [name, status] of [['ok', 200], ['failing', 503]] as const) {
    const server = await startStatusServer(status);
    servers[name].server = server;
    servers[name].profile = join(work, `${name}.target.json`);
    await writeFixtureProfile(servers[name].profile, server.baseUrl);
  }
});

afterAll(async () => {
  for (const entry of Object.values(servers)) await entry.server?.close();
});

async function reportIn(out: string): Promise<Report> {
  return JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as Report;
}

const sum = (rows: Array<{ sent: number }>, key: 'sent' | 'completed' | 'asked' | 'dropped'): number => rows.reduce((total, row) => total + (row as Record<string, number>)[key]!, 0);

describe('load --workers 2 (built CLI)', () => {
  it('one merged report: every planned request sent once, as many as the server received; the timeline and --stream add up to it', async () => {
    const out = join(work, 'merged');
    const before = await servers.ok.server!.count();
    const stream = join(work, 'merged.jsonl');
    const result = await cli(['load', '--profile', servers.ok.profile, '--workers', '2', '--rate', '300', '--duration', '3s', '--stream', stream, '--out', out], undefined, 60_000);
    expect(result.code, result.stderr).toBe(0);
    const report = await reportIn(out);
    expect(report.counts.planned).toBe(900);
    expect(report.counts.sent).toBe(900);
    expect(report.counts.completed).toBe(900);
    expect(report.counts.statuses).toEqual({ '200': 900 });
    expect((await servers.ok.server!.count()) - before).toBe(900);
    expect(report.latencyMs.count).toBe(900);
    expect(sum(report.timeline, 'sent')).toBe(900);
    expect(sum(report.timeline, 'completed')).toBe(900);
    expect(sum(report.timeline, 'asked')).toBe(900);
    expect(report.details.workers).toBe(2);
    expect(report.driver.workers).toBe(2);
    expect(report.driver.busy).toHaveLength(2);
    expect(result.stdout).toMatch(/driver {5}2 sending threads, busy \d+ % \/ \d+ % while sending/);
    const lines = (await readFile(stream, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { final: boolean; total: { sent: number; completed: number } });
    expect(lines.at(-1)!.final).toBe(true);
    expect(lines.at(-1)!.total).toMatchObject({ sent: 900, completed: 900 });
  }, 70_000);

  it('errors are counted once with their samples, and the error threshold judged on the merged figures exits 1', async () => {
    const out = join(work, 'errors');
    const before = await servers.failing.server!.count();
    const result = await cli(['load', '--profile', servers.failing.profile, '--workers', '2', '--rate', '200', '--duration', '2s', '--out', out], undefined, 60_000);
    expect(result.code, result.stderr).toBe(1);
    const report = await reportIn(out);
    expect(report.counts.sent).toBe(400);
    expect(report.counts.errors).toBe(400);
    expect((await servers.failing.server!.count()) - before).toBe(400);
    expect(report.counts.statuses).toEqual({ '503': 400 });
    expect(report.thresholds).toEqual([expect.objectContaining({ expression: 'errors<1%', ok: false })]);
    // The first three of the kind, from whichever workers met them first: not three per worker.
    expect(report.errorSamples.filter((sample) => sample.kind === 'HTTP 503')).toHaveLength(3);
  }, 70_000);

  it('--abort-on-fail: a threshold crossed on the merged figures stops every worker early, exit 1', async () => {
    const out = join(work, 'abort');
    const result = await cli(
      ['load', '--profile', servers.ok.profile, '--workers', '2', '--rate', '200', '--duration', '20s', '--threshold', 'p50<0.001ms', '--abort-on-fail', '--abort-after', '1s', '--out', out],
      undefined,
      60_000,
    );
    expect(result.code, result.stderr).toBe(1);
    const report = await reportIn(out);
    expect(report.stopReason).toBe('threshold-crossed');
    expect(report.counts.sent).toBeGreaterThan(0);
    expect(report.counts.sent).toBeLessThan(report.counts.planned / 2);
    expect(report.counts.sent).toBe(report.counts.completed + report.counts.cancelled);
    expect(result.stdout).toContain('ABORTED: threshold p50<0.001ms crossed');
  }, 70_000);

  it('Ctrl-C stops every worker, writes the partial merged report and exits 130', async () => {
    const out = join(work, 'interrupted');
    let sent = false;
    const result = await cli(['load', '--profile', servers.ok.profile, '--workers', '2', '--rate', '100', '--duration', '60s', '--out', out], (stderr, kill) => {
      if (!sent && (stderr.match(/\/s \(asked/g) ?? []).length >= 2) {
        sent = true;
        kill('SIGINT');
      }
    }, 60_000);
    expect(sent).toBe(true);
    expect(result.code, result.stderr).toBe(130);
    const report = await reportIn(out);
    expect(report.interrupted).toBe(true);
    expect(report.stopReason).toBe('interrupted');
    expect(report.counts.sent).toBeGreaterThanOrEqual(100);
    expect(report.counts.sent).toBeLessThan(report.counts.planned);
    expect(report.counts.sent).toBe(report.counts.completed + report.counts.cancelled);
  }, 70_000);

  it('--metrics-listen serves the merged figures: one scrape counts the answers of both workers, each latency observed once', async () => {
    const out = join(work, 'metrics');
    const run = startCli(['load', '--profile', servers.ok.profile, '--workers', '2', '--rate', '100', '--duration', '6s', '--metrics-listen', '127.0.0.1:0', '--out', out], undefined, 60_000);
    const deadline = Date.now() + 30_000;
    while (!(/metrics: (\S+)\n/.test(run.stderr()) && (run.stderr().match(/\/s \(asked/g) ?? []).length >= 3)) {
      if (Date.now() > deadline) throw new Error(`no metrics address and progress: ${run.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const text = await (await fetch(/metrics: (\S+)\n/.exec(run.stderr())![1]!)).text();
    const samples = new Map(text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))] as const));
    const answered = samples.get('access_conformance_load_requests_total{status="200",scenario="webhook-hmac"}') ?? samples.get('access_conformance_load_requests_total{scenario="webhook-hmac",status="200"}');
    const observed = samples.get('access_conformance_load_request_duration_seconds_count{scenario="webhook-hmac"}');
    // Two merged seconds at 100/s at least; the histogram holds the same answers (a row's latencies arrive with its counts).
    expect(answered).toBeGreaterThanOrEqual(150);
    expect(observed).toBe(answered);
    const result = await run.done;
    expect(result.code, result.stderr).toBe(0);
    expect((await reportIn(out)).counts.completed).toBe(600);
  }, 70_000);

  it('requests dropped at the max in flight are counted once, judged by a threshold on the merged figures, in the JSON and the HTML report alike', async () => {
    // Stalls 600 ms of every second: with 6 in flight in all (3 per worker), most arrivals of a stall are dropped.
    const stalling = await startStallingServer(1000, 600);
    try {
      const profile = join(work, 'stalling.target.json');
      await writeFixtureProfile(profile, stalling.baseUrl);
      const out = join(work, 'dropped');
      const result = await cli(['load', '--profile', profile, '--workers', '2', '--rate', '100', '--duration', '3s', '--max-in-flight', '6', '--connections', '6', '--timeout', '5s', '--threshold', 'dropped<1%', '--out', out], undefined, 60_000);
      expect(result.code, result.stderr).toBe(1);
      const report = await reportIn(out);
      expect(report.thresholds).toEqual(expect.arrayContaining([expect.objectContaining({ expression: 'dropped<1%', ok: false }), expect.objectContaining({ expression: 'errors<1%', ok: true })]));
      expect(report.driver.workers).toBe(2);
      expect(report.counts.planned).toBe(300);
      expect(report.counts.dropped).toBeGreaterThan(50);
      expect(report.counts.sent + report.counts.dropped).toBe(300);
      expect(sum(report.timeline, 'dropped')).toBe(report.counts.dropped);
      expect(sum(report.timeline, 'sent')).toBe(report.counts.sent);
      expect(await stalling.count()).toBe(report.counts.sent);
      const html = await readFile(join(out, 'load-webhook-hmac.html'), 'utf8');
      expect(html).toContain(`${report.counts.dropped} dropped (max in flight 6)`);
      expect(html).toContain('2 sending threads');
    } finally {
      await stalling.close();
    }
  }, 70_000);
});
