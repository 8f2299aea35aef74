/**
 * What a recorded exchange says about its replay (`RecordedExchange.replay`): the recipe of the request,
 * or why there is none. Types only, apart from the code that builds them (replay-recipe.ts) and the code
 * that remembers them (replay-context.ts), which both need them, as does the exchange's type (types.ts).
 */
import type { ListenerKey } from '../profile/types.js';
import type { Portable } from './replay-encode.js';

export type ReplayRecipe =
  | {
      kind: 'webhook';
      /** A profile listener's key, or an explicit listener ID and auth (unknown-listener checks). */
      listener: ListenerKey | { listenerId: Portable; auth: Portable };
      options: Portable;
      /**
       * `fresh`: a new event ID on every replay; `kept`: the check is about this one (its form); `repeat`:
       * the check repeats an ID, so `prelude` (the first request with it) goes first, both under one new ID.
       */
      eventId: 'fresh' | 'kept' | 'repeat';
      prelude?: ReplayRecipe[];
      /**
       * A repeat in another text form of the same UUID (upper case, braces, `urn:uuid:`, no hyphens): the
       * form with `{ID}` where the UUID stands, and how the UUID is written there.
       */
      eventIdForm?: { template: string; digits: 'lower' | 'upper'; hyphens: boolean };
      /** Seconds the check moved the target's clock (test hooks) between the prelude and this request. */
      clockAdvance?: number;
    }
  | { kind: 'token'; options: Portable }
  | { kind: 'request'; method: string; url: Portable; headers: Portable; body?: Portable };

/** What an exchange says about its replay: a recipe, or why there is none. */
export type ReplayNote = { recipe: ReplayRecipe } | { unavailable: string };
