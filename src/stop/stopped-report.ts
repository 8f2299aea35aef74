/**
 * The short report of a command stopped before its own reporters could write one: a `load` interrupted,
 * past its deadline or ended by a harness error before its driver started (the command writes it), or any
 * `run` or `load` frozen and killed by its supervisor, or ended by a signal before its handlers existed
 * (supervisor.ts writes it). `<out>/report.json`, the same format name as a full report, with no results: it
 * says what stopped the command, in which phase, and the exit code. docs/report-json.md describes it. A
 * `run` stopped in start-up writes its full reports instead (engine/unstarted.ts), and this only when those
 * cannot be written.
 */
import { stat } from 'node:fs/promises';
import { writeOutputFile } from '../output-file.js';
import { join, resolve } from 'node:path';
import { toolVersion, TOOL_NAME } from '../package.js';
import type { StopReason } from './reason.js';

export const STOPPED_REPORT_FILE = 'report.json';

/** Why it stopped (a signal, the deadline, a main thread that stopped responding, a harness error), and where. */
export interface StoppedReportInput extends StopReason {
  command: string;
  exitCode: number;
  startedAt: number;
  /** Who wrote it: the command itself, or its supervising parent after ending it. */
  writtenBy: 'run scope' | 'supervisor';
  /** Default: this package's name and version. */
  tool?: { name: string; version: string };
}

export function stoppedReport(input: StoppedReportInput): Record<string, unknown> {
  return {
    format: 'access-conformance-report',
    formatVersion: 1,
    tool: input.tool ?? { name: TOOL_NAME, version: toolVersion() },
    command: input.command,
    date: new Date(input.startedAt).toISOString(),
    durationMs: Date.now() - input.startedAt,
    interrupted: input.code === 'INTERRUPTED',
    aborted: { code: input.code, message: input.message, ...(input.hint ? { hint: input.hint } : {}), ...(input.signal ? { signal: input.signal } : {}), phase: input.phase ?? 'start' },
    verdict: { status: input.code === 'INTERRUPTED' ? 'interrupted' : 'error', exitCode: input.exitCode, code: input.code },
    results: [],
    writtenBy: input.writtenBy,
  };
}

/** Writes `<outDir>/report.json`; returns its path. */
export async function writeStoppedReport(outDir: string, input: StoppedReportInput): Promise<string> {
  // Through output-file.ts, as every report: folders made one level at a time (Node's recursive mkdir
  // spins under /proc), a FIFO or a full disk a bounded, named failure. This is the last report a stopped
  // command gets: it must never hang.
  const path = join(resolve(outDir), STOPPED_REPORT_FILE);
  await writeOutputFile(path, `${JSON.stringify(stoppedReport(input), null, 2)}\n`, '--out');
  return path;
}

/**
 * Writes the stopped report unless the folder already holds a report.json written since `startedAt`
 * (the command's own, whose "reported" message the supervisor may not have had). Returns the path written,
 * or undefined when a newer report was kept.
 */
export async function writeStoppedReportUnlessNewer(outDir: string, input: StoppedReportInput): Promise<string | undefined> {
  try {
    if ((await stat(join(resolve(outDir), STOPPED_REPORT_FILE))).mtimeMs >= input.startedAt) return undefined;
  } catch {
    // None yet: write it.
  }
  return writeStoppedReport(outDir, input);
}
