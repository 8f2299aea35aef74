// The load JSON report names its format and version first, as report.json does, so that a consumer (a
// dashboard, a diff script) can tell the two kinds of file apart and refuse a version it does not know.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport, LOAD_REPORT_FORMAT, LOAD_REPORT_FORMAT_VERSION } from '../../src/load/report.js';
import { writeReport } from '../../src/load/report-writer.js';
import { ArrivalSchedule } from '../../src/load/schedule.js';
import { LoadStats } from '../../src/load/stats.js';

function smallReport() {
  const stats = new LoadStats((status) => status === 200);
  for (let i = 0; i < 10; i += 1) {
    stats.onSent(0.1);
    stats.onResponse(2 + i / 10, i === 9 ? 503 : 200);
  }
  stats.roll(1000, 10);
  return buildReport({
    config: { scenario: 'webhook-hmac', rate: 10, durationMs: 1000, connections: 1, maxInFlight: 10, timeoutMs: 1000, thresholds: [] },
    target: { name: 'test', baseUrl: 'http://127.0.0.1:1', embedded: true },
    details: {},
    expectedStatus: '200',
    schedule: ArrivalSchedule.constant(10, 1000),
    stats,
    result: { startedAt: Date.UTC(2026, 0, 1), elapsedMs: 1000, sendingMs: 1000, stopReason: 'completed', starved: 0 },
    thresholds: [],
  });
}

describe('load JSON report format', () => {
  it('is access-conformance-load-report version 1, the first two fields of the written file', async () => {
    const report = smallReport();
    expect(report.format).toBe('access-conformance-load-report');
    expect(report.formatVersion).toBe(1);
    expect([LOAD_REPORT_FORMAT, LOAD_REPORT_FORMAT_VERSION]).toEqual([report.format, report.formatVersion]);
    const dir = await mkdtemp(join(tmpdir(), 'ac-load-format-'));
    try {
      const written = await writeReport(report, dir);
      const text = await readFile(written.json!, 'utf8');
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(parsed).slice(0, 2)).toEqual(['format', 'formatVersion']);
      expect(parsed).toMatchObject({ format: LOAD_REPORT_FORMAT, formatVersion: 1, scenario: 'webhook-hmac' });
      expect(parsed.counts).toMatchObject({ sent: 10, completed: 10, expected: 9, errors: 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
