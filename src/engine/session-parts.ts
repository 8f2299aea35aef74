/** The engine session's small parts: the run's header, why it stopped, bounded waits, the heartbeat. */
import { DEFAULT_RETRY_AFTER_CAP_MS } from '../defaults.js';
import { isHarnessError } from '../errors.js';
import { TOOL_NAME, toolVersion } from '../package.js';
import { CATALOGUE_VERSION } from '../requirements/catalogue.js';
import type { RunCollector } from './collector.js';
import type { Emitter } from './emitter.js';
import type { SessionRunOptions, SessionSettings } from './session-options.js';
import type { PulledInCheck, RunAbort, RunHeader } from './types.js';

const DEFAULT_HEARTBEAT_MS = 15_000;

interface HeaderInput extends Omit<SessionRunOptions, 'profile'> {
  /** Only what the header names (a run that never started has no profile: unstarted.ts). */
  profile: Pick<SessionRunOptions['profile'], 'name' | 'baseUrl'>;
  settings: SessionSettings;
  maxDurationMs: number;
  maxConsecutiveFailures: number;
}

/** The run's header before the preflight (capabilities and notes are filled in once it answered). */
export function runHeader(input: HeaderInput, selectedIds: string[], startedAt: number, pulledIn: readonly PulledInCheck[] = []): RunHeader {
  const { client, concurrency } = input.settings;
  return {
    tool: { name: TOOL_NAME, version: toolVersion() },
    catalogueVersion: CATALOGUE_VERSION,
    profileName: input.profile.name,
    target: input.profile.baseUrl,
    ...(input.targetDescription ? { targetDescription: input.targetDescription } : {}),
    seed: input.seed,
    date: new Date(startedAt).toISOString(),
    selection: { only: input.selection.only, skip: input.selection.skip, selected: selectedIds.length, ...(pulledIn.length > 0 ? { pulledIn: [...pulledIn] } : {}) },
    strict: input.strict,
    settings: {
      timeoutMs: client.timeoutMs,
      concurrency,
      ...(client.rateLimit === undefined ? {} : { rateLimit: client.rateLimit }),
      maxDurationMs: input.maxDurationMs,
      maxConsecutiveFailures: input.maxConsecutiveFailures,
      // What the client applies when the setting is absent: the header says what the run did.
      retryAfterCapMs: client.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
    },
    capabilities: { clock: false, runs: false },
    notes: [],
    selectedIds,
  };
}

/** A harness error keeps its code, message and hint; anything else is a harness bug. */
export function abortOf(error: unknown): RunAbort {
  if (isHarnessError(error)) return { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  return { code: 'INTERNAL', message: `the run failed: ${error instanceof Error ? error.message : String(error)}` };
}

/** Heartbeat events while a group runs long without a check finishing; returns the stop. */
export function startHeartbeat(collector: RunCollector, emitter: Emitter, runStartedAt: number, intervalMs = DEFAULT_HEARTBEAT_MS): () => void {
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - collector.lastProgressAt < intervalMs) return;
    const event = collector.heartbeat(now, runStartedAt);
    if (event.running.length === 0) return;
    collector.lastProgressAt = now;
    emitter.emit('onHeartbeat', event);
  }, Math.max(250, Math.floor(intervalMs / 2)));
  timer.unref();
  return () => clearInterval(timer);
}
