/**
 * V8 settings for `run`, set by the CLI before the run loads anything heavy.
 *
 * A run lives seconds. Most of its heap is module code that is loaded once and stays alive (vitest, vite,
 * the suites, the embedded reference). V8's defaults suit a long-lived server: they grow the young
 * generation and optimise hot functions, which in a run costs memory and CPU and never pays back.
 * Measured on the embedded default, 2 cores, median of 5 (BENCHMARKS.md): peak RSS 230 → 175 MiB on
 * Node 20, 233 → 182 MiB on Node 22, 269 → 220 MiB on Node 24, for 0.05–0.3 s more wall time.
 *
 * Only the CLI's `run` sets them. The library API never changes its host's flags, and `serve` and `load`
 * are long-lived or hot paths and keep V8's defaults.
 *
 * Node documents `v8.setFlagsFromString` after start-up as unpredictable in general; it works for a flag
 * V8 reads when it acts on it rather than once at start-up, as these are (the next growth of the young
 * generation, the next tier-up decision, the next heap-sizing decision). tests/cli/v8-footprint.test.ts
 * checks in a child of the running node that they take effect. A flag the user set for node
 * (NODE_OPTIONS, or node's own command line) is left as they set it.
 */
import { setFlagsFromString } from 'node:v8';

interface FootprintFlag {
  /** The flag, as V8 takes it. */
  flag: string;
  /** Node options that, set by the user, mean we leave this one alone. */
  userSet: readonly string[];
  /** The V8 versions (major) it pays on; all when absent. */
  v8Majors?: (major: number) => boolean;
}

export const RUN_V8_FLAGS: readonly FootprintFlag[] = [
  // The young generation starts small and doubles after each scavenge that keeps much of it. Loading
  // modules keeps almost everything, so it reaches its maximum (two 16 MB semi-spaces on Node 20 to 24)
  // and stays there. With a growth factor of 1 it stays near its start size; scavenges are more frequent
  // and smaller.
  { flag: '--semi-space-growth-factor=1', userSet: ['--semi-space-growth-factor', '--max-semi-space-size', '--min-semi-space-size'] },
  // TurboFan compiles on background threads into code that stays in memory. In a run of seconds it
  // returns less CPU than it spends. Ignition and Sparkplug still run everything.
  { flag: '--no-turbofan', userSet: ['--turbofan', '--no-turbofan', '--opt', '--no-opt'] },
  // V8's memory-saving heuristics: a slower-growing old generation and more compaction. Measured: 9 MiB
  // less on Node 20 (V8 11) and 16 MiB less on Node 22 (V8 12), each for about 0.1 s more. On Node 24
  // (V8 13) it saves 10 MiB but the checks take a second longer, so it is not set there.
  { flag: '--optimize-for-size', userSet: ['--optimize-for-size', '--no-optimize-for-size'], v8Majors: (major) => major < 13 },
];

/** The node options the user gave: node's own command line and NODE_OPTIONS, spelled with dashes. */
export function userNodeOptions(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  // V8 takes `--max_semi_space_size` as `--max-semi-space-size`; compare names only.
  return [...execArgv, ...nodeOptions.split(/\s+/)]
    .filter((option) => option.startsWith('--'))
    .map((option) => option.split('=')[0]!.replaceAll('_', '-'));
}

/**
 * Sets RUN_V8_FLAGS on this process, but for those the user set themselves and those that do not pay on this
 * V8; returns the flags it set. `set` and `v8Major` are for tests.
 */
export function tuneV8ForShortRun(
  userOptions: readonly string[] = userNodeOptions(),
  set: (flag: string) => void = setFlagsFromString,
  v8Major = Number.parseInt(process.versions.v8, 10),
): string[] {
  const applied: string[] = [];
  for (const { flag, userSet, v8Majors } of RUN_V8_FLAGS) {
    if (userOptions.some((option) => userSet.includes(option))) continue;
    if (v8Majors && !v8Majors(v8Major)) continue;
    set(flag);
    applied.push(flag);
  }
  return applied;
}
