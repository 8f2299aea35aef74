/**
 * The sandbox's own wrappers around the reference, as `serve` chains them but without the inspector page:
 * observeHandler(diagnosingHandler(reference)), around whatever a fault or variant wrapped inside. For
 * the tests and the bench, which need serve's chain on a sandbox of their own (serve itself composes the
 * same parts with the page, through src/sandbox/inspection.ts). A served fault turns the diagnoses off:
 * the reference then refuses on purpose what a client got right, and a sentence naming the client's
 * mistake would mislead.
 */
import type { SandboxCustomize } from '../tenant/types.js';
import { diagnosingCustomize, type DiagnosingOptions } from './diagnosing-handler.js';
import type { ExchangeObserver } from './exchange.js';
import { observeHandler } from './observe.js';

export interface SandboxWrappers {
  /** Name the client's mistake in each refusal; default true. */
  diagnoses?: boolean | DiagnosingOptions;
  /** Who sees each answered request (the console lines, the inspector). */
  observers?: () => readonly ExchangeObserver[];
}

/** `inner` (a fault's, a variant's, or nothing) with the sandbox's wrappers around it. */
export function sandboxCustomize(inner: SandboxCustomize | undefined, wrappers: SandboxWrappers): SandboxCustomize {
  const diagnosing = wrappers.diagnoses === false ? undefined : diagnosingCustomize(wrappers.diagnoses === true ? {} : wrappers.diagnoses);
  return {
    ...inner,
    deps: (deps, tenant) => {
      const replaced = { ...deps, ...(inner?.deps?.(deps, tenant) ?? {}) };
      return { ...replaced, ...(diagnosing?.deps?.(replaced, tenant) ?? {}) };
    },
    wrapHandler: (handler, tenant) => {
      const faulty = inner?.wrapHandler?.(handler, tenant) ?? handler;
      const diagnosed = diagnosing?.wrapHandler?.(faulty, tenant) ?? faulty;
      return wrappers.observers === undefined ? diagnosed : observeHandler(diagnosed, wrappers.observers);
    },
  };
}
