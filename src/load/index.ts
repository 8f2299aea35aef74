/**
 * The load driver (`access-conformance load`): open-model arrival schedules, latency from intended send
 * times into HDR histograms, JSON and HTML reports, k6-style thresholds, and the webhook-JWT corpus that
 * the k6 scripts in load/ replay.
 */
export { runLoad, LOAD_DEFAULTS, DEFAULT_ERROR_THRESHOLD, type LoadOptions, type LoadOutcome } from './run.js';
export { ArrivalSchedule, type ScheduleSpec } from './schedule.js';
export { parseDurationMs, parseRate, parseStages, parseCount, formatMs, type Stage } from './parse.js';
export { parseThreshold, evaluateThresholds, type Threshold, type ThresholdResult } from './thresholds.js';
export { buildReport, type LoadReport, type LoadRunConfig } from './report.js';
export { writeReport, type WrittenReport } from './report-writer.js';
export { summaryText, progressLine } from './report-text.js';
export { LoadStats, BEHIND_MS, type IntervalRow, type LatencySummary } from './stats.js';
export { drive, type DriveOptions, type DriveResult, type SendingEnd } from './driver.js';
export { SCENARIOS, type Scenario, type RequestSource } from './source.js';
export {
  prepareCorpus,
  writeCorpus,
  readCorpus,
  corpusProblem,
  describeWindow,
  CORPUS_FORMAT,
  WEBHOOK_JWT_MAX_EXP_SECONDS,
  type Corpus,
  type CorpusEntry,
} from './corpus.js';
export { openTarget, type LoadTarget } from './target.js';
