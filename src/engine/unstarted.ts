/**
 * The reports of a run that stopped before it had a target: a signal, the deadline or the start-up bound
 * while the profile loads, the keys are made, the embedded reference or an image starts, or a harness error
 * there (a profile that does not load, a baseline that is not valid). Every reporter the run was given
 * writes, as for any other early stop (a target that does not answer): the header says the target never
 * started, every selected check is errored with the reason, and the verdict is `interrupted` (130 / 143) or
 * `error` (2). So a CI job that reads junit.xml or report.json learns why, not nothing.
 */
import type { ClientSettings } from '../client/settings.js';
import { RunCollector } from './collector.js';
import { selectionWithControls } from './controls.js';
import { computeTotals } from './counts.js';
import { Emitter } from './emitter.js';
import { defaultMaxDurationMs, DEFAULT_MAX_CONSECUTIVE_FAILURES } from './limits.js';
import { resolveSelection } from './selection.js';
import { runHeader } from './session-parts.js';
import type { CheckResult, EngineReporter, RunAbort, RunSummary, SelectionInput } from './types.js';
import { abortedVerdict } from './verdict.js';

/** What the header shows for the profile and the target of a run that never had one. */
export const NOT_STARTED = '(not started)';

export interface UnstartedRunOptions {
  selection: SelectionInput;
  seed: string;
  strict: boolean;
  client: ClientSettings & { timeoutMs: number };
  concurrency: number;
  maxDurationMs?: number;
  maxConsecutiveFailures?: number;
  reporters: EngineReporter[];
  /** Why it stopped, with the phase. */
  aborted: RunAbort;
  /** When the command started (its duration counts from there). */
  startedAt: number;
  /** How the target was to be started (embedded reference, the image), for the header. */
  targetDescription?: string;
}

export async function reportUnstartedRun(options: UnstartedRunOptions): Promise<RunSummary> {
  const { requirements, pulledIn } = selectionWithControls(resolveSelection(options.selection).requirements, options.selection);
  const header = runHeader(
    {
      profile: { name: NOT_STARTED, baseUrl: NOT_STARTED },
      selection: options.selection,
      seed: options.seed,
      strict: options.strict,
      reporters: options.reporters,
      ...(options.targetDescription === undefined ? {} : { targetDescription: `${options.targetDescription} (${NOT_STARTED})` }),
      settings: { client: options.client, concurrency: options.concurrency },
      maxDurationMs: options.maxDurationMs ?? defaultMaxDurationMs(requirements.length, options.client.timeoutMs),
      maxConsecutiveFailures: options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES,
    },
    requirements.map((req) => req.id),
    options.startedAt,
    pulledIn,
  );
  const emitter = new Emitter(options.reporters);
  const results = new Map<string, CheckResult>();
  // No suite group runs: the collector only fills every selected check in with the reason.
  const collector = new RunCollector(requirements, results, emitter, new Set(), new Map(pulledIn.map((check) => [check.id, check.controlOf])));
  emitter.emit('onRunStart', header);
  collector.abort(options.aborted);
  collector.finishAll();
  const ordered = collector.keys().map((key) => results.get(key)).filter((r): r is CheckResult => r !== undefined);
  const summary: RunSummary = {
    header,
    results: ordered,
    totals: computeTotals(ordered, options.strict),
    verdict: abortedVerdict(options.aborted),
    warnings: [],
    durationMs: Date.now() - options.startedAt,
    harnessErrors: [],
    aborted: options.aborted,
    rootCauses: [],
  };
  emitter.emit('onRunEnd', summary);
  await emitter.flush();
  return summary;
}
