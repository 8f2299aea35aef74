/**
 * `diagnose`: given a refused request, the reference's answer and the tenant (secrets included), which
 * known mistake explains it. The mistakes that can explain this refusal (same status, the reference's
 * words) are tried in the catalogue's order; the first that detects its mistake names it. When none does,
 * the sentence says what was checked. A refusal the catalogue has no mistake for (a 404 app, a page size)
 * gets no diagnosis: its answer stays as the reference gave it.
 */
import type { Diagnosis } from './exchange.js';
import { MISTAKES, MISTAKE_AREAS, UNEXPLAINED, type ListedMistake } from './mistakes/index.js';
import type { RefusedRequest } from './refused-request.js';

/** The docs' entry of a mistake: the answer's `error_uri`. */
export const docsEntry = (code: string): string => `docs/sandbox.md#${code}`;

const explaining = (refused: RefusedRequest): ListedMistake[] =>
  MISTAKES.filter((mistake) =>
    mistake.explains.some((r) => r.status === refused.status && refused.description.startsWith(r.says) && (r.path === undefined || refused.path.startsWith(r.path))),
  );

export function fillSentence(template: string, facts: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => facts[name] ?? '');
}

export function diagnose(refused: RefusedRequest): Diagnosis | undefined {
  const candidates = explaining(refused);
  if (candidates.length === 0) return undefined;
  for (const mistake of candidates) {
    let facts;
    try {
      facts = mistake.detect(refused);
    } catch {
      // Hostile input a detection did not foresee is "not this mistake", never a failed answer.
      facts = undefined;
    }
    if (facts !== undefined) return { mistake: mistake.code, sentence: fillSentence(mistake.sentence, facts) };
  }
  const checked = [...new Set(candidates.map((m) => m.checks))].join('; ');
  const advice = MISTAKE_AREAS.flatMap((area) => area.advice ?? []).find((a) => refused.description.startsWith(a.says))?.advice;
  return {
    mistake: UNEXPLAINED,
    sentence: `${refused.description}, and no known mistake explains it (checked: ${checked})${advice === undefined ? '' : `: ${advice}`}`,
  };
}
