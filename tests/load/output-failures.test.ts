/**
 * Outputs that cannot crash or hang a run (src/output-file.ts): `--stream` and the report files against a
 * full disk (/dev/full), a folder where a file should be, a path under /proc that no mkdir can make (Node's
 * recursive mkdir spins on it), a FIFO with no reader and one whose reader never reads. Each is an error
 * naming the flag and the cause, never a throw out of the run; the other report file is still written.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.js';
import { isLoopback } from '../../src/load/metrics-server.js';
import { writeReport } from '../../src/load/report-writer.js';
import { buildReport } from '../../src/load/report.js';
import { ArrivalSchedule } from '../../src/load/schedule.js';
import { LoadStats } from '../../src/load/stats.js';
import { LoadStream, streamLine } from '../../src/load/stream.js';
import { writeOutputFile } from '../../src/output-file.js';
import { writeReportFile, type ReporterContext } from '../../src/reporters/context.js';

const root = mkdtempSync(join(tmpdir(), 'ac-outputs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fifo(name: string): string {
  const path = join(root, name);
  execFileSync('mkfifo', [path]);
  return path;
}

function aLine() {
  const stats = new LoadStats((status) => status === 200);
  stats.onSent(0);
  stats.onResponse(5, 200);
  return streamLine({ scenario: 'webhook-hmac', row: stats.roll(1000, 10), final: false, inFlight: 0, stats, latency: stats.latency(), thresholds: [] });
}

function caught(run: () => unknown): HarnessError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error('expected a HarnessError');
}

describe('load --stream', () => {
  it('a path under /proc whose folder cannot be made fails at once, naming --stream (no spinning mkdir)', () => {
    const error = caught(() => LoadStream.open('/proc/1/no-such/stream.jsonl'));
    expect(error.code).toBe('LOAD_CONFIG');
    expect(error.field).toBe('--stream');
    expect(error.message).toContain('cannot open it for appending');
  });

  it('a FIFO with no reader fails at once (ENXIO), not a blocked open', () => {
    const error = caught(() => LoadStream.open(fifo('no-reader')));
    expect(error.field).toBe('--stream');
    expect(error.message).toContain('FIFO (or a device) with no reader (ENXIO)');
  });

  it('/dev/full: the write fails without a throw; the stream stops and says why', () => {
    const stream = LoadStream.open('/dev/full');
    stream.write(aLine());
    stream.write(aLine());
    stream.close();
    expect(stream.failure?.code).toBe('OUTPUT_UNWRITABLE');
    expect(stream.failure?.field).toBe('--stream');
    expect(stream.failure?.message).toBe('--stream /dev/full: cannot write it: the disk is full (ENOSPC)');
  });

  it('a FIFO whose reader never reads: lines wait a while, then the stream fails (never a blocked run)', () => {
    const path = fifo('lazy-reader');
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stream = LoadStream.open(path);
      for (let i = 0; i < 500 && stream.failure === undefined; i += 1) stream.write(aLine());
      expect(stream.failure?.message).toContain('its reader is not reading (the pipe stayed full) (EAGAIN)');
      stream.close();
    } finally {
      closeSync(reader);
    }
  });
});

describe('report files', () => {
  const report = buildReport({
    config: { scenario: 'webhook-hmac', rate: 10, durationMs: 1000, connections: 1, maxInFlight: 10, timeoutMs: 1000, thresholds: [] },
    target: { name: 'test', baseUrl: 'http://127.0.0.1:1', embedded: true },
    details: {},
    expectedStatus: '200',
    schedule: ArrivalSchedule.constant(10, 1000),
    stats: new LoadStats((status) => status === 200),
    result: { startedAt: Date.UTC(2026, 0, 1), elapsedMs: 1000, sendingMs: 1000, stopReason: 'completed', starved: 0 },
    thresholds: [],
  });

  it("load's JSON report where a folder of that name is: EISDIR naming --out, the HTML page still written", async () => {
    const dir = join(root, 'load-out');
    mkdirSync(join(dir, 'load-webhook-hmac.json'), { recursive: true });
    const written = await writeReport(report, dir);
    expect(written.json).toBeUndefined();
    expect(written.html).toBe(join(dir, 'load-webhook-hmac.html'));
    expect(existsSync(written.html!)).toBe(true);
    expect(written.failures.map((f) => [f.code, f.field])).toEqual([['OUTPUT_UNWRITABLE', '--out']]);
    expect(written.failures[0]!.message).toContain('it is a directory (EISDIR)');
  });

  it("load's reports under a file: ENOTDIR naming --out, nothing thrown", async () => {
    const written = await writeReport(report, '/dev/null/reports');
    expect(written.failures[0]?.message).toContain('a part of its path is a file, not a directory (ENOTDIR)');
  });

  it('a FIFO whose reader never reads: the write gives up at its bound', async () => {
    const path = fifo('report-fifo');
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await expect(writeOutputFile(path, Buffer.alloc(1 << 20), '--out', 300)).rejects.toMatchObject({ code: 'OUTPUT_UNWRITABLE', field: '--out' });
    } finally {
      closeSync(reader);
    }
  });

  it("a run's report file (writeReportFile) on a full disk: OUTPUT_UNWRITABLE naming --out", async () => {
    const ctx: ReporterContext = { outDir: root, stdout: { write: () => undefined }, env: {}, redact: (t) => t, scrub: (t) => t, artifacts: [] };
    await expect(writeReportFile(ctx, '/dev/full', { a: 1 }, (v) => JSON.stringify(v))).rejects.toMatchObject({
      code: 'OUTPUT_UNWRITABLE',
      field: '--out',
      message: '--out /dev/full: cannot write it: the disk is full (ENOSPC)',
    });
    expect(ctx.artifacts).toEqual([]);
  });
});

describe('--metrics-listen beyond loopback', () => {
  it('tells loopback addresses from the rest (the rest get the warning)', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.4', '10.0.0.1', '::ffff:10.0.0.1'].map(isLoopback)).toEqual([false, false, false, false, false]);
  });
});
