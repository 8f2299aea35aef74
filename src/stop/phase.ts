/**
 * The one phase type: where a command is, as the supervisor, DEBUG=access-conformance, every report's
 * `aborted.phase` and load's `interruption.step` name it. The engine and the load driver report theirs in
 * these words (their own subsets), so no layer translates.
 */
export const PHASES = [
  'start',
  'profile',
  'state',
  'embedded reference',
  'keys',
  'image',
  'preflight',
  'worker start',
  'checks',
  'load',
  'sending',
  'serving',
  'reporting',
  'cleanup',
] as const;

export type Phase = (typeof PHASES)[number];

export function isPhase(value: unknown): value is Phase {
  return typeof value === 'string' && (PHASES as readonly string[]).includes(value);
}
