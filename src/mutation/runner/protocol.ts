/** Messages between the verification pool (parent) and its worker processes, and the report both produce. */
import type { CheckState } from '../../engine/types.js';

/** What judging a run needs: the json report's results and outside errors (a JsonReport is one). */
export interface RunReport {
  results: Array<{
    id: string;
    state: CheckState;
    failure?: { message: string };
    harnessError?: { message: string };
    reason?: string;
    /** Blocked only: the positive control that did not pass (a json report carries it too). */
    blockedBy?: { control: string; ownRequest?: boolean };
  }>;
  harnessErrors: Array<{ message: string }>;
}

export interface RunRequest {
  type: 'run';
  job: number;
  fault: string;
  ids: string[];
  seed: string;
}

export type WorkerMessage =
  /** Listening: the parent answers with its InitRequest (sent only now, so it cannot arrive unheard). */
  | { type: 'started' }
  | { type: 'ready' }
  | { type: 'result'; job: number; report: RunReport; durationMs: number }
  | { type: 'failed'; job: number; error: string; durationMs: number };

/** The first message a worker gets: how its suite session runs. */
export interface InitRequest {
  type: 'init';
  checksInFlight: number;
  timeoutMs: number;
}

export type ParentMessage = InitRequest | RunRequest | { type: 'exit' };
