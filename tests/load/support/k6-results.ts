/**
 * What a k6 run of a script in load/ leaves behind (its summary JSON and JUnit file, written by
 * handleSummary into SUMMARY_DIR) and what `serve` saw of it (the runs hook: every automation run, once
 * per accepted event).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunPlan } from './k6-lib.js';

export interface K6Metric {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

interface K6Group {
  checks?: Array<{ name: string; passes: number; fails: number }>;
  groups?: K6Group[];
}

export interface K6Summary {
  metrics: Record<string, K6Metric>;
  root_group?: K6Group;
  /** Added by load/lib/summary.js. */
  accessConformance: RunPlan;
}

export function readSummary(dir: string, scenario: string): K6Summary {
  return JSON.parse(readFileSync(join(dir, `k6-${scenario}-summary.json`), 'utf8')) as K6Summary;
}

export function checksOf(summary: K6Summary): Array<{ name: string; passes: number; fails: number }> {
  const out: Array<{ name: string; passes: number; fails: number }> = [];
  const walk = (group: K6Group | undefined): void => {
    if (!group) return;
    out.push(...(group.checks ?? []));
    for (const child of group.groups ?? []) walk(child);
  };
  walk(summary.root_group);
  return out;
}

/** Passes of the check with this name (0 when absent). */
export function passesOf(summary: K6Summary, name: string): number {
  return checksOf(summary).find((check) => check.name === name)?.passes ?? 0;
}

export function thresholdsOf(summary: K6Summary): Array<{ metric: string; expression: string; ok: boolean }> {
  return Object.entries(summary.metrics).flatMap(([metric, value]) =>
    Object.entries(value.thresholds ?? {}).map(([expression, result]) => ({ metric, expression, ok: result.ok })),
  );
}

export function count(summary: K6Summary, metric: string): number {
  return summary.metrics[metric]?.values.count ?? 0;
}

/** `<testsuites tests=".." failures="..">` of the JUnit file. */
export function readJunit(dir: string, scenario: string): { tests: number; failures: number; xml: string } {
  const xml = readFileSync(join(dir, `k6-${scenario}-junit.xml`), 'utf8');
  const head = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(xml);
  if (!head) throw new Error(`k6-${scenario}-junit.xml has no <testsuites tests failures> element:\n${xml.slice(0, 500)}`);
  return { tests: Number(head[1]), failures: Number(head[2]), xml };
}

interface HookProfile {
  hooks?: { baseUrl: string; token?: string };
  webhooks: Record<string, { listenerId: string }>;
}

/** Event IDs of every automation run of a listener, oldest first (profile/test-hooks.md `GET /runs`). */
export async function runsOf(profilePath: string, listener: string): Promise<string[]> {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as HookProfile;
  if (!profile.hooks) throw new Error('the profile offers no hooks: start serve with --hooks');
  const id = profile.webhooks[listener]?.listenerId;
  if (id === undefined) throw new Error(`the profile has no webhooks.${listener}`);
  const response = await fetch(`${profile.hooks.baseUrl}/runs?listenerId=${encodeURIComponent(id)}`, {
    headers: profile.hooks.token ? { authorization: `Bearer ${profile.hooks.token}` } : {},
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`GET /runs answered ${response.status}`);
  const body = (await response.json()) as { runs: Array<{ eventId: string }> };
  return body.runs.map((run) => run.eventId);
}

/** Event IDs that appear more than once. */
export function repeated(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

/** The runs that are new since `before` (the log is a list that only grows while under its bound). */
export function newRuns(before: readonly string[], after: readonly string[]): string[] {
  const old = new Set(before);
  return after.filter((id) => !old.has(id));
}
