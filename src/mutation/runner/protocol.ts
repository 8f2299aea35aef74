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
  | { type: 'ready' }
  | { type: 'result'; job: number; report: RunReport; durationMs: number }
  | { type: 'failed'; job: number; error: string; durationMs: number };

export type ParentMessage = RunRequest | { type: 'exit' };
