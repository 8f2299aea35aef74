/**
 * What one client knows when it writes recipes (replay-recipe.ts): the profile's values and the tokens it
 * obtained (each written as a marker naming it), the recorder's rules (a text they would redact cannot be
 * written), and the event IDs it sent (a repeat is what an idempotency check is about: its reproduction
 * sends the first request again before it, both under one fresh ID).
 */
import type { ResolvedProfile } from '../profile/types.js';
import type { InternalRecorder } from './recorder.js';
import { profileKeys, profileValues, type EncodeOptions, type Portable } from './replay-encode.js';
import type { ReplayRecipe } from './replay-note.js';

/** Event IDs remembered per client: enough for any one check's repeats. */
const SENT_EVENT_IDS = 4096;

export class RecipeContext {
  private readonly base: Array<[string, Portable]>;
  private readonly keys: Array<[Record<string, unknown>, string]>;
  private readonly tokens: Array<[string, Portable]> = [];
  /**
   * Each event ID sent (by the UUID it holds, whatever its text form): the seconds the clock had been moved
   * when it was first sent, and that first request's recipe, settled once it is built. Claimed when a send
   * is called, so of duplicates sent in parallel the first called is the first, whatever finishes first.
   */
  private readonly sent = new Map<string, { advanced: number; first: Promise<ReplayRecipe | undefined> }>();
  private advanced = 0;

  constructor(profile: ResolvedProfile, private readonly recorder: InternalRecorder) {
    this.base = profileValues(profile);
    this.keys = profileKeys(profile);
  }

  /** An access token obtained for API calls: a replay obtains its own the same way. */
  noteToken(accessToken: string, credential: string, method: 'secret' | 'assertion'): void {
    if (this.tokens.some(([value]) => value === accessToken)) return;
    this.tokens.push([accessToken, { $token: `${credential}:${method}` }]);
  }

  /** The target's clock was moved (test hooks): a repeat across the move moves it as much when replayed. */
  noteClockMove(seconds: number): void {
    this.advanced += seconds;
  }

  /**
   * Claims an event ID for a send, synchronously when the send is called. The first claim must settle its
   * recipe (or undefined) once built, on every way out; a later one gets the first's recipe and how far
   * the clock moved since it (`earlier`).
   */
  claim(eventId: string): { settle(recipe: ReplayRecipe | undefined): void; earlier(): Promise<{ first?: ReplayRecipe; clockMovedSeconds: number } | undefined> } {
    const key = eventIdKey(eventId);
    const seen = this.sent.get(key);
    if (seen !== undefined) {
      const movedAt = this.advanced;
      return {
        settle: () => undefined,
        earlier: async () => {
          const first = await seen.first;
          return { ...(first ? { first } : {}), clockMovedSeconds: movedAt - seen.advanced };
        },
      };
    }
    let settle!: (recipe: ReplayRecipe | undefined) => void;
    const first = new Promise<ReplayRecipe | undefined>((resolve) => (settle = resolve));
    this.sent.set(key, { advanced: this.advanced, first });
    if (this.sent.size > SENT_EVENT_IDS) this.sent.delete(this.sent.keys().next().value as string);
    return { settle, earlier: async () => undefined };
  }

  /** The encoding of a request built at `now` (Unix seconds, the target's clock when it was read). */
  encoding(now: number = Date.now() / 1000): EncodeOptions {
    return {
      now,
      known: [...this.tokens, ...this.base].sort((a, b) => b[0].length - a[0].length),
      carriesSecret: (text) => this.recorder.carriesSecret(text),
      profileKeys: this.keys,
    };
  }
}

/** A UUID inside any of its text forms (hyphens or not, either case). */
export const UUID_IN_TEXT = /[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}/;

/** The UUID an event ID holds, canonical (lower case, hyphens), whatever its text form; else the text. */
export function eventIdKey(eventId: string): string {
  const match = UUID_IN_TEXT.exec(eventId);
  if (!match) return eventId;
  const hex = match[0].replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
