/**
 * The k6 scripts' budgets, without k6: VUs pre-allocated from the rate and the latency they must absorb,
 * a dropped-iteration budget that is a share with a floor, and execution segments that scale that budget
 * to each instance's share (shares of complementary segments add up to the whole). The same numbers are
 * checked under a real k6 in k6-lane.test.ts and k6-segments.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { k6lib, type ConfigLib, type OptionsLib, type SegmentLib, type SummaryData, type SummaryLib } from './support/k6-lib.js';

const config = await k6lib<ConfigLib>('config');
const options = await k6lib<OptionsLib>('options');
const segments = await k6lib<SegmentLib>('segment');
const summary = await k6lib<SummaryLib>('summary');

describe('k6 budgets', () => {
  it('pre-allocates VUs for rate × (p90 threshold + a pause of the k6 process) plus two', () => {
    expect(config.PAUSE_HEADROOM_MS).toBe(500);
    expect(config.plannedVUs(20, 200)).toEqual({ preAllocated: 16, max: 40 });
    expect(config.plannedVUs(200, 200)).toEqual({ preAllocated: 142, max: 400 });
    expect(config.plannedVUs(1, 200)).toEqual({ preAllocated: 3, max: 3 });
    const c = config.readConfig({ RATE: '20', DURATION: '5s' }, config.HOT_PATH_DEFAULTS);
    expect(c).toMatchObject({ preAllocatedVUs: 16, maxVUs: 40, vusGiven: false, droppedFloor: 5, segment: null });
    expect(config.readConfig({ RATE: '20', PREALLOCATED_VUS: '3' }, config.HOT_PATH_DEFAULTS)).toMatchObject({ preAllocatedVUs: 3, maxVUs: 40, vusGiven: true });
  });

  it('the dropped budget is the share of planned iterations, never below the floor', () => {
    const low = config.readConfig({ RATE: '20', DURATION: '5s' }, config.HOT_PATH_DEFAULTS);
    // 1 % of 100 is 1: one pause of the process could cross it; the floor of 5 cannot be crossed by one.
    expect(options.buildOptions({ scenario: 'soak', config: low }).options.thresholds.dropped_iterations).toEqual(['count<=5']);
    const high = config.readConfig({ RATE: '200', DURATION: '1m' }, config.HOT_PATH_DEFAULTS);
    expect(options.buildOptions({ scenario: 'soak', config: high }).droppedBudget).toBe(120);
    const strict = config.readConfig({ RATE: '20', DURATION: '5s', DROPPED_FLOOR: '0', MAX_DROPPED_RATIO: '0' }, config.HOT_PATH_DEFAULTS);
    expect(options.buildOptions({ scenario: 'soak', config: strict }).droppedBudget).toBe(0);
  });

  it('a ramp pre-allocates VUs for its peak rate, not for RATE', () => {
    const c = config.readConfig({}, config.HOT_PATH_DEFAULTS);
    const ramp = options.buildOptions({ scenario: 'token', config: c, stages: '10s:50,20s:300' }).options.scenarios.token;
    expect(ramp).toMatchObject({ preAllocatedVUs: config.plannedVUs(300, 200).preAllocated, maxVUs: 600 });
  });

  it('segments: fractions k6 accepts, shares that add up, refusals that say what is wrong', () => {
    expect(segments.parseSegment('1/3:2/3')).toMatchObject({ start: { num: 1, den: 3 }, end: { num: 2, den: 3 } });
    expect(segments.parseSegment('1/2').start).toEqual({ num: 0, den: 1 });
    expect(segments.parseSegment('0.25:50%').width).toBeCloseTo(0.25, 12);
    for (const bad of ['1/2:1/3', '3/2', 'half', '0:1:2']) expect(() => segments.parseSegment(bad)).toThrow(/segment/i);
    for (const total of [0, 1, 7, 100, 4001]) {
      const thirds = ['0:1/3', '1/3:2/3', '2/3:1'].map((s) => segments.segmentShare(total, segments.parseSegment(s)));
      expect(thirds.reduce((a, b) => a + b, 0)).toBe(total);
      const halves = ['0:1/2', '1/2:1'].map((s) => segments.segmentShare(total, segments.parseSegment(s)));
      expect(halves.reduce((a, b) => a + b, 0)).toBe(total);
    }
    expect(segments.segmentShare(4001, null)).toBe(4001);
  });

  it('each instance plans, and is held to, its own share; k6 is told the segment the script scaled for', () => {
    const env = { RATE: '200', DURATION: '20s', EXECUTION_SEGMENT: '0:1/2', EXECUTION_SEGMENT_SEQUENCE: '0,1/2,1' };
    const half = options.buildOptions({ scenario: 'webhook-hmac', config: config.readConfig(env, config.HOT_PATH_DEFAULTS) });
    const whole = options.buildOptions({ scenario: 'webhook-hmac', config: config.readConfig({ RATE: '200', DURATION: '20s' }, config.HOT_PATH_DEFAULTS) });
    expect(half).toMatchObject({ plannedIterations: 4000, instanceIterations: 2000, droppedBudget: 20 });
    expect(whole).toMatchObject({ plannedIterations: 4000, instanceIterations: 4000, droppedBudget: 40 });
    expect(half.options).toMatchObject({ executionSegment: '0:1/2', executionSegmentSequence: '0,1/2,1' });
    expect(whole.options.executionSegment).toBeUndefined();
    expect(() => config.readConfig({ EXECUTION_SEGMENT_SEQUENCE: '0,1/2,1' }, config.HOT_PATH_DEFAULTS)).toThrow(/EXECUTION_SEGMENT/);
  });

  it('a segment k6 runs but the script did not scale for is named in the summary', () => {
    const c = config.readConfig({ RATE: '20', DURATION: '5s' }, config.HOT_PATH_DEFAULTS);
    const built = options.buildOptions({ scenario: 'webhook-hmac', config: c });
    expect(summary.runPlan(built, c, null).warning).toBeUndefined();
    expect(summary.runPlan(built, c, '').warning).toBeUndefined();
    const plan = summary.runPlan(built, c, '0:1/2');
    expect(plan.warning).toMatch(/runs execution segment 0:1\/2 .* -e EXECUTION_SEGMENT/);
    const scaled = config.readConfig({ RATE: '20', DURATION: '5s', EXECUTION_SEGMENT: '1/2:1' }, config.HOT_PATH_DEFAULTS);
    expect(segments.segmentMismatch(scaled.segment, '0.5:1')).toBeUndefined();
    expect(segments.segmentMismatch(scaled.segment, null)).toMatch(/whole test/);
    const data: SummaryData = { metrics: { dropped_iterations: { type: 'counter', values: { count: 3 }, thresholds: { 'count<=5': { ok: true } } } } };
    const text = summary.textSummary(data, 'webhook-hmac', plan);
    expect(text).toContain('planned       100 iterations');
    expect(text).toContain('dropped       3 iterations (budget 5)');
    expect(text).toMatch(/warning .*not started on time/);
    expect(text).toMatch(/warning .*k6 runs execution segment 0:1\/2/);
    const json = JSON.parse(summary.summaryOutputs(data, 'webhook-hmac', 'out', plan)['out/k6-webhook-hmac-summary.json']!) as Record<string, unknown>;
    expect(json.accessConformance).toEqual(plan);
    expect(json.metrics).toEqual(data.metrics);
  });
});
