/**
 * The rerun line of a failed check: the one command that runs just that check again, against the same
 * target, with the same seed (so every generated value repeats). It names the profile by the path the run
 * was given, never a secret: the profile holds those.
 */
import type { RunHeader } from '../engine/types.js';
import { shellLiteral } from '../escape.js';

/** How the run was started, as far as a rerun needs it. */
export type RunInvocation = (
  | { kind: 'profile'; path: string }
  | { kind: 'embedded'; faults: readonly string[] }
  | { kind: 'image'; image: string }
) & {
  /** `--openapi` as given: a rerun reads the same description. */
  openapi?: string;
  /**
   * The words that started the harness (`npx access-conformance`, `access-conformance`, `node
   * bin/access-conformance.js`: cli/launcher.ts), so a printed command runs where the run was started;
   * `access-conformance` when absent (a library caller).
   */
  launcher?: readonly string[];
};

/** The first words of every printed command: how the harness was started, each a shell word. */
export function launcherOf(invocation: RunInvocation | undefined): string {
  return (invocation?.launcher ?? ['access-conformance']).map(word).join(' ');
}

/** One shell word: bare when it needs no quoting, else single-quoted. */
export function word(value: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(value) ? value : shellLiteral(value);
}

export function rerunCommand(invocation: RunInvocation, header: Pick<RunHeader, 'seed' | 'strict'>, id: string): string {
  const target =
    invocation.kind === 'profile'
      ? ['--profile', word(invocation.path)]
      : invocation.kind === 'image'
        ? ['--image', word(invocation.image)]
        : invocation.faults.flatMap((fault) => ['--fault', word(fault)]);
  const openapi = invocation.openapi === undefined ? [] : ['--openapi', word(invocation.openapi)];
  return [launcherOf(invocation), 'run', ...target, ...openapi, '--only', word(id), '--seed', word(header.seed), ...(header.strict ? ['--strict'] : [])].join(' ');
}

/** The rerun line when the run's invocation is known (the CLI sets it; a library caller may not). */
export function rerunFor(invocation: RunInvocation | undefined, header: Pick<RunHeader, 'seed' | 'strict'>, id: string): string | undefined {
  return invocation === undefined ? undefined : rerunCommand(invocation, header, id);
}
