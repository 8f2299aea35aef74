/**
 * The reporters' names, without their classes: the CLI's option table lists and checks them before any
 * reporter module loads (`run --help` stays fast). index.ts builds its table against this list.
 */
export const REPORTER_NAMES = ['console', 'junit', 'json', 'html', 'markdown', 'github'] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}

/**
 * Reporters on without being asked: `github` inside a GitHub Actions job (GITHUB_ACTIONS=true), where its
 * annotations are the first thing a reader of the run sees. Asking for it again changes nothing.
 */
export function implicitReporters(env: NodeJS.ProcessEnv): ReporterName[] {
  return env.GITHUB_ACTIONS === 'true' ? ['github'] : [];
}
