/**
 * What `serve` wraps around the reference (and its faults) from outside: the observer chain and, in front of
 * it, the inspector page. Handed to startSandbox as the outermost customize, so the chain is
 * inspector → observeHandler(every observer) → (diagnoses, faults) → reference; the page's own requests are
 * answered before the observer and never logged.
 */
import type { SandboxCustomize } from '../tenant/types.js';
import type { ExchangeObserver } from './exchange.js';
import { createInspector, type Inspector } from './inspector.js';
import { observeHandler } from './observe.js';
import { createRequestLog } from './request-log.js';

export interface Inspection {
  readonly customize: SandboxCustomize;
  /** Observers of every answered request besides the page's log (the console line); read per request. */
  readonly observers: ExchangeObserver[];
  /** The page, once the sandbox made its tenant (undefined before). */
  readonly inspector: Inspector | undefined;
}

export interface InspectionOptions {
  /** The start lines `serve` prints, shown on the page. */
  cheatSheet: () => string;
  /** curl's extra arguments in the page's commands (the CA file of --tls). */
  curlArgs?: () => readonly string[];
}

export function createInspection(options: InspectionOptions): Inspection {
  const observers: ExchangeObserver[] = [];
  let inspector: Inspector | undefined;
  return {
    observers,
    get inspector() {
      return inspector;
    },
    customize: {
      wrapHandler: (inner, tenant) => {
        const log = createRequestLog();
        observers.push(log.observer);
        inspector = createInspector({ tenant, log, cheatSheet: options.cheatSheet, curlArgs: options.curlArgs ?? (() => []) });
        return inspector.wrap(observeHandler(inner, () => observers));
      },
    },
  };
}
