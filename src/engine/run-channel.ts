/**
 * The live line between the suite workers and the engine: each worker announces the lasting secrets its
 * client learns (access tokens) and the fate of every request; the engine adds the secrets to the run's
 * redaction registry and counts consecutive failures. A BroadcastChannel reaches every worker thread of
 * this process at once, so a token obtained in one worker is redacted in all the others and in every
 * report before any of them can print it. (Secrets also travel in each check's meta, for pools whose
 * workers are not threads.) The engine posts `stop` when the run stops: the checks still waiting for a slot
 * (suites/support/check-slots.ts) leave at once instead of starting against a target the run gave up on.
 */
import { BroadcastChannel } from 'node:worker_threads';
import type { RequestOutcome } from '../client/types.js';
import type { HarnessErrorCode } from '../errors.js';

export type RunMessage = { kind: 'secret'; value: string } | { kind: 'outcome'; outcome: RequestOutcome } | { kind: 'stop'; code: HarnessErrorCode; reason: string };

export interface RunChannel {
  post(message: RunMessage): void;
  close(): void;
}

function isRunMessage(value: unknown): value is RunMessage {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'secret' || kind === 'outcome' || kind === 'stop';
}

/** Joins the channel `name`; `onMessage` hears what the other members post (never one's own posts). */
export function joinRunChannel(name: string, onMessage: (message: RunMessage) => void): RunChannel {
  const channel = new BroadcastChannel(name);
  channel.onmessage = (event) => {
    const data = (event as { data?: unknown }).data;
    if (isRunMessage(data)) onMessage(data);
  };
  // The channel must never keep a worker or the CLI alive once the run is over.
  channel.unref();
  let open = true;
  return {
    post(message) {
      if (open) channel.postMessage(message);
    },
    close() {
      if (!open) return;
      open = false;
      channel.close();
    },
  };
}

/** A fresh channel name per run: runs in one process (tests, the fault runner) never hear each other. */
export function newRunChannelName(): string {
  return `access-conformance/run/${process.pid}/${Date.now().toString(36)}/${Math.random().toString(36).slice(2)}`;
}
