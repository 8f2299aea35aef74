/**
 * The `--metrics-listen` exposition follows Prometheus' naming rules as `promtool check metrics` applies
 * them (issue 39: it warned on three prom-client default gauges named `…_total`): `_total` only on
 * counters, and every counter ends in it. Read from the registry's own text, the way a scrape gets it;
 * with promtool on PATH, its lint must say nothing too.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dropTotalGauges, LoadMetrics, METRIC_PREFIX } from '../../src/load/metrics.js';
import { LoadStats } from '../../src/load/stats.js';
import { skipUnless } from '../support/capabilities.js';

function types(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const hasPromtool = promtool.status === 0;

describe('the live metrics are named as Prometheus expects', () => {
  it('no gauge (or anything but a counter) ends in _total; every counter does', async () => {
    const metrics = new LoadMetrics('webhook-hmac');
    const stats = new LoadStats((status) => status === 200);
    metrics.attach(stats);
    stats.onSent(0);
    stats.onResponse(3, 200);
    const named = types(await metrics.text());
    expect(named.size).toBeGreaterThan(10);
    for (const [name, type] of named) {
      if (type === 'counter') expect(name, `counter ${name}`).toMatch(/_total$/);
      else expect(name, `${type} ${name}`).not.toMatch(/_total$/);
    }
    // The counts of the dropped defaults are still there, per type, in the gauges without the suffix.
    expect(named.get('access_conformance_load_nodejs_active_handles')).toBe('gauge');
  });

  it("prom-client's three default gauges named …_total are gone from the registry, and nothing is left to drop", () => {
    const metrics = new LoadMetrics('webhook-hmac');
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      expect(metrics.registry.getSingleMetric(`${METRIC_PREFIX}${name}`), name).toBeUndefined();
    }
    expect(dropTotalGauges(metrics.registry)).toEqual([]);
  });

  it('promtool check metrics finds nothing to say', async (ctx) => {
    skipUnless(ctx, 'promtool', hasPromtool, 'no promtool on PATH');
    const metrics = new LoadMetrics('webhook-hmac');
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: await metrics.text(), encoding: 'utf8' });
    expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('');
    expect(checked.status).toBe(0);
  });
});
