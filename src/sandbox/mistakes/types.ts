/**
 * A client mistake, as data: what refusal it explains, how the sandbox tells it from the request, and the
 * one sentence the answer then carries. The same form as the fault table (src/faults), seen from the other
 * side: a fault is the service getting a rule wrong, a mistake is the client getting it wrong.
 */
import type { RefusedRequest } from '../refused-request.js';

/**
 * Named values a detection found, put into the sentence's `{placeholders}`. Values the client sent are
 * made one short, visible line before they are put in (src/escape.ts), never a secret or a correct digest.
 */
export type Facts = Readonly<Record<string, string>>;

/** The reference's refusal a mistake can explain: its status and the start of its error_description. */
export interface Refusal {
  readonly status: number;
  /** The reference's error_description, or its beginning (`JWT refused (` matches every JWT reason). */
  readonly says: string;
  /** The path it must be on, or its beginning, when the reference says the same words elsewhere too. */
  readonly path?: string;
}

export interface Mistake {
  /** Stable, kebab-case: the answer's `mistake` field and the docs' anchor. Never a fault's name. */
  readonly code: string;
  /** The refusals it can explain (the reference's own words: which check refused it). */
  readonly explains: readonly Refusal[];
  /** What was checked, for the sentence of a refusal nothing explains ("the key", "the encoding"). */
  readonly checks: string;
  /** How it is told: the facts for the sentence, or undefined when the request does not show it. */
  readonly detect: (refused: RefusedRequest) => Facts | undefined;
  /** The sentence with `{fact}` placeholders; `serve --list-mistakes` and the docs print it as written. */
  readonly sentence: string;
}

/** One area's mistakes, in the order they are tried: the first that detects its mistake names it. */
export interface MistakeArea {
  readonly area: string;
  /** What the area covers, for the docs. */
  readonly title: string;
  readonly mistakes: readonly Mistake[];
  /** For a refusal none of the mistakes explains: what the rule is, after the list of what was checked. */
  readonly advice?: ReadonlyArray<{ readonly says: string; readonly advice: string }>;
}
