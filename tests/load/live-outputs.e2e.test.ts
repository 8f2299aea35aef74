/**
 * What `load` shows while it runs, tried as an SRE would: `--metrics-listen` scraped twice a few seconds
 * apart (the counters grow, the latency histogram fills), and bad values refused with exit 2 before any
 * request is sent.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, fixtureTarget, startCli, type RunningCli } from './support/load-cli.js';

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
