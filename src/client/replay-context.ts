/**
 * What one client knows when it writes recipes (replay-recipe.ts): the profile's values and the tokens it
 * obtained (each written as a marker naming it), the recorder's rules (a text they would redact cannot be
 * written), and the event IDs it sent (a repeat is what an idempotency check is about: its reproduction
 * sends the first request again before it, both under one fresh ID).
 */
import type { ResolvedProfile } from '../profile/types.js';
import type { InternalRecorder } from './recorder.js';
import { profileKeys, profileValues, type EncodeOptions, type Portable } from './replay-encode.js';
import type { ReplayRecipe } from './replay-recipe.js';

/** Event IDs remembered per client: enough for any one check's repeats. */
const SENT_EVENT_IDS = 4096;

export class RecipeContext {
  private readonly base: Array<[string, Portable]>;
  private readonly keys: Array<[Record<string, unknown>, string]>;
  private readonly tokens: Array<[string, Portable]> = [];
  /** Each event ID sent: the seconds the clock had been moved when it was first sent, and that request's recipe. */
  private readonly sent = new Map<string, { advanced: number; first?: ReplayRecipe }>();
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

  /** An earlier request with this event ID: its recipe (if it had one), and how far the clock moved since. */
  earlier(eventId: string): { first?: ReplayRecipe; clockMovedSeconds: number } | undefined {
    const seen = this.sent.get(eventId);
    return seen === undefined ? undefined : { ...(seen.first ? { first: seen.first } : {}), clockMovedSeconds: this.advanced - seen.advanced };
  }

  markSent(eventId: string, recipe: ReplayRecipe | undefined): void {
    if (this.sent.has(eventId)) return;
    this.sent.set(eventId, { advanced: this.advanced, ...(recipe ? { first: recipe } : {}) });
    if (this.sent.size > SENT_EVENT_IDS) this.sent.delete(this.sent.keys().next().value as string);
  }

  /** The encoding of a request built at `now` (Unix seconds, the target's clock when it was read). */
  encoding(now: number = Date.now() / 1000): EncodeOptions {
    return {
      now,
      known: [...this.tokens, ...this.base].sort((a, b) => b[0].length - a[0].length),
      carriesSecret: (text) => this.recorder.redact(text) !== text,
      profileKeys: this.keys,
    };
  }
}
