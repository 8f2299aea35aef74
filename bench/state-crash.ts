/**
 * SIGKILL at random moments of the group commit (`npm run bench -- state-crash`, BENCHMARKS.md "serve
 * --state-dir: crash consistency"): bench/state-crash-child.ts claims event IDs on a state DIR with serve's
 * code and prints each one answered; it is killed with SIGKILL after a random delay; then the DIR is opened
 * again (the proof of src/state/proof.ts runs) and every ID answered before the kill is claimed again: each
 * must be a duplicate, or the open must refuse with STATE_DIR_CORRUPT (counted apart: a refusal is the
 * invariant's other allowed outcome, and one after a plain SIGKILL would be a false alarm worth knowing).
 * Trials run in chains on one DIR (a kill after the recovery of the last kill), a new DIR per chain.
 *
 * tests/state/crash-consistency.e2e.test.ts runs a few dozen trials; this bench runs a thousand.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStateDir } from '../src/state/index.js';
import type { Bench, BenchReport } from './registry.js';

// Compiled beside this file; run from source (vitest), the build's copy.
const CHILD = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? './state-crash-child.js' : '../dist/bench/state-crash-child.js', import.meta.url));
const LISTENER = 'wh_crash';

export interface CrashTrialOptions {
  trials: number;
  /** Kills on one DIR before a new one. */
  chainLength?: number;
  /** The kill lands uniformly in [0, maxDelayMs] after the child is ready. */
  maxDelayMs?: number;
  onTrial?: (line: string) => void;
}

export interface CrashTrialResult {
  trials: number;
  /** IDs answered before a kill, over all trials. */
  acknowledged: number;
  /** Claims checked after restarts (each acknowledged ID is checked after every later kill of its chain). */
  checked: number;
  /** Acknowledged IDs a restart accepted again: the invariant broken. */
  violations: number;
  /** Restarts refused with STATE_DIR_CORRUPT, and why. */
  refused: string[];
}

interface ChildRun {
  acknowledged: string[];
  refusal?: string;
}

/** Spawns the child on `dir`, kills it `delayMs` after it is ready, returns the IDs it answered. */
function killedChild(dir: string, delayMs: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    let stderr = '';
    let ready = false;
    let timer: NodeJS.Timeout | undefined;
    const bound = setTimeout(() => child.kill('SIGKILL'), 30_000 + delayMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (!ready && text.startsWith('ready\n')) {
        ready = true;
        timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.once('error', reject);
    child.once('close', () => {
      clearTimeout(bound);
      if (timer) clearTimeout(timer);
      const lines = text.split('\n');
      // The last piece has no newline yet: a line cut by the kill, not an answer.
      lines.pop();
      if (lines[0]?.startsWith('refused')) return resolve({ acknowledged: [], refusal: lines[0] });
      if (!ready) return reject(new Error(`the crash child never got ready: ${text}${stderr}`));
      resolve({ acknowledged: lines.slice(1) });
    });
  });
}

export async function runCrashTrials(options: CrashTrialOptions): Promise<CrashTrialResult> {
  const chainLength = options.chainLength ?? 10;
  const maxDelayMs = options.maxDelayMs ?? 300;
  const root = mkdtempSync(join(tmpdir(), 'ac-crash-'));
  const result: CrashTrialResult = { trials: 0, acknowledged: 0, checked: 0, violations: 0, refused: [] };
  try {
    let dir = '';
    let chain: string[] = [];
    for (let trial = 0; trial < options.trials; trial += 1) {
      if (trial % chainLength === 0 || dir === '') {
        dir = join(root, `chain-${trial}`);
        chain = [];
      }
      const delayMs = Math.random() * maxDelayMs;
      const run = await killedChild(dir, delayMs);
      result.trials += 1;
      if (run.refusal !== undefined) {
        result.refused.push(run.refusal);
        dir = '';
        continue;
      }
      chain.push(...run.acknowledged);
      result.acknowledged += run.acknowledged.length;
      let state;
      try {
        state = await openStateDir(dir);
      } catch (error) {
        if ((error as { code?: string }).code !== 'STATE_DIR_CORRUPT') throw error;
        result.refused.push((error as Error).message);
        dir = '';
        continue;
      }
      let again = 0;
      try {
        const now = state.deps.clock.now();
        for (const eventId of chain) if (await state.deps.eventStore.claim(LISTENER, eventId, now)) again += 1;
      } finally {
        await state.close();
      }
      result.checked += chain.length;
      result.violations += again;
      options.onTrial?.(`trial ${trial + 1}: killed ${Math.round(delayMs)} ms in, ${run.acknowledged.length} answered; ${chain.length} checked, ${again} accepted again`);
    }
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const TRIALS = Number(process.env.BENCH_CRASH_TRIALS ?? 1000);

export const stateCrashBench: Bench = {
  name: 'state-crash',
  description: `serve --state-dir's store killed with SIGKILL at ${TRIALS} random moments of the group commit: every ID answered before a kill must be a duplicate after the restart`,
  async run(): Promise<BenchReport> {
    const t0 = performance.now();
    const result = await runCrashTrials({ trials: TRIALS, onTrial: (line) => process.stderr.write(`  ${line}\n`) });
    return {
      name: 'state-crash',
      metrics: [
        { label: 'trials (SIGKILLs)', value: result.trials, unit: 'kills' },
        { label: 'IDs answered before a kill', value: result.acknowledged, unit: 'IDs' },
        { label: 'claims checked after restarts', value: result.checked, unit: 'claims' },
        { label: 'answered, then accepted again', value: result.violations, unit: 'IDs' },
        { label: 'restarts refused (STATE_DIR_CORRUPT)', value: result.refused.length, unit: 'restarts' },
        { label: 'wall time', value: Math.round((performance.now() - t0) / 1000), unit: 's' },
      ],
      notes: [
        `chains of 10 kills on one DIR (a new DIR per chain); each kill uniformly 0–300 ms after the child opened the DIR; 64 claims in flight, each with its run; node ${process.version}.`,
        ...result.refused.slice(0, 5).map((why) => `refused: ${why}`),
      ],
    };
  },
};
