/**
 * `access-conformance load`: the built-in open-model load driver, and `load prepare`, which signs a
 * webhook-JWT corpus for the k6 script load/webhook-jwt.js (k6 cannot sign EdDSA). The handler
 * (load-handler.ts) loads only when the command runs.
 *
 * Exit codes like k6's thresholds: 0 when every --threshold held, 1 when one was crossed, 2 for a usage or
 * harness error. Ctrl-C stops sending and still writes the (partial) report; a second Ctrl-C quits at once.
 */
import { defineCommand } from '../command.js';
import { LOAD_OPTIONS } from './load-options.js';

export interface LoadArgs {
  action?: string;
  profile?: string;
  scenario: string;
  rate?: string;
  duration?: string;
  stages?: string;
  connections?: number;
  'max-in-flight'?: number;
  'max-requests'?: number;
  'body-bytes'?: number;
  alg?: string;
  listener?: string;
  'token-method'?: string;
  corpus?: string;
  'dup-pool'?: number;
  'page-size'?: number;
  timeout?: string;
  threshold: string[];
  out?: string;
  seed?: string;
  quiet: boolean;
  count?: number;
  'exp-in'?: number;
  'serve-jwks': boolean;
}

export const loadCommand = defineCommand<LoadArgs>({
  command: 'load [action]',
  describe: 'Load-test the webhook hot path (open model, latency from intended send times); `load prepare` signs a JWT corpus for k6',
  builder: (y) =>
    y
      .positional('action', { type: 'string', choices: ['prepare'], describe: 'prepare: sign a webhook-jwt corpus for load/webhook-jwt.js' })
      .options(LOAD_OPTIONS) as never,
  run: async (args) => (await import('./load-handler.js')).loadHandler(args),
});

