/**
 * The catalogue of client mistakes: one table per area, collected here. `serve --list-mistakes` prints
 * it, docs/sandbox.md "When the sandbox says no" is generated from it, and the diagnosis tries it in this
 * order (an area's mistakes in their table's order).
 */
import { API_BEARER_MISTAKES } from './api-bearer.js';
import { TOKEN_ENDPOINT_MISTAKES } from './token-endpoint.js';
import type { Mistake, MistakeArea } from './types.js';
import { WEBHOOK_HMAC_MISTAKES } from './webhook-hmac.js';
import { WEBHOOK_JWT_MISTAKES } from './webhook-jwt.js';
import { WEBHOOK_REQUEST_MISTAKES } from './webhook-request.js';

export type { Facts, Mistake, MistakeArea, Refusal } from './types.js';

/** The code of a refusal no mistake of the catalogue explains. */
export const UNEXPLAINED = 'unexplained';

export const MISTAKE_AREAS: readonly MistakeArea[] = [WEBHOOK_REQUEST_MISTAKES, WEBHOOK_HMAC_MISTAKES, WEBHOOK_JWT_MISTAKES, TOKEN_ENDPOINT_MISTAKES, API_BEARER_MISTAKES];

export interface ListedMistake extends Mistake {
  readonly area: string;
}

function collect(areas: readonly MistakeArea[]): readonly ListedMistake[] {
  const seen = new Set<string>([UNEXPLAINED]);
  const all: ListedMistake[] = [];
  for (const area of areas) {
    for (const mistake of area.mistakes) {
      if (seen.has(mistake.code)) throw new Error(`two mistakes are coded ${mistake.code}`);
      if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(mistake.code)) throw new Error(`mistake code ${mistake.code} is not kebab-case`);
      if (mistake.explains.length === 0) throw new Error(`mistake ${mistake.code} explains no refusal`);
      seen.add(mistake.code);
      all.push({ ...mistake, area: area.area });
    }
  }
  return all;
}

/** Every mistake, in the order the diagnosis tries them. */
export const MISTAKES: readonly ListedMistake[] = collect(MISTAKE_AREAS);

export function getMistake(code: string): ListedMistake | undefined {
  return MISTAKES.find((mistake) => mistake.code === code);
}
