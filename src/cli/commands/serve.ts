/**
 * `access-conformance serve`: the reference implementation with a generated tenant, for client developers
 * and for running the harness by hand. Writes the target profile, prints where things are (never a
 * secret), and stays up until SIGINT or SIGTERM. The handler (serve-handler.ts) loads only when it runs.
 */
import type { Options } from 'yargs';
import { DEFAULT_SECRET_DOMAIN } from '../../defaults.js';
import { defineCommand } from '../command.js';

export interface ServeArgs {
  seed?: string;
  port: number;
  host: string;
  'profile-out': string;
  hooks: boolean;
  'public-url'?: string;
  'jwks-host'?: string;
  'secret-domain': string;
  tls: boolean;
  fault: string[];
  'list-faults': boolean;
}

/** Every flag of `serve`, declared once: yargs reads it for parsing, --help and ACCESS_CONFORMANCE_<FLAG>. */
export const SERVE_OPTIONS = {
  seed: { type: 'string', describe: 'Seed of the generated names and IDs (random when absent)' },
  port: { type: 'number', default: 0, describe: 'Port to listen on (0 = any free port)' },
  host: { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' },
  'profile-out': {
    type: 'string',
    default: 'reports/sandbox.target.json',
    describe: 'Where to write the target profile (it holds the sandbox secrets; written mode 0600)',
  },
  hooks: { type: 'boolean', default: false, describe: 'Offer the test hooks (clock, runs) under /__hooks/v1' },
  'public-url': {
    type: 'string',
    describe: 'Base URL written to the profile when clients reach the server at another address (NAT, container)',
  },
  'jwks-host': {
    type: 'string',
    describe: "Host in the JWT listener's JWKS URL, as this server reaches the machine serving it (default 127.0.0.1)",
  },
  'secret-domain': {
    type: 'string',
    default: DEFAULT_SECRET_DOMAIN,
    describe: 'Service-domain segment of the Client Secrets (the official TypeScript and Python SDKs refuse any other than the default)',
  },
  tls: {
    type: 'boolean',
    default: false,
    describe: 'Serve the API over HTTPS; the local CA is written next to the profile (tls.caFile) and its path printed',
  },
  fault: {
    type: 'string',
    array: true,
    default: [] as string[],
    describe: 'Serve a faulty variant (repeatable); --list-faults lists them',
  },
  'list-faults': {
    type: 'boolean',
    default: false,
    describe: 'Print every fault --fault accepts (name, area, the requirements it breaks, what it does wrong) and exit',
  },
} as const satisfies Record<string, Options>;

export const serveCommand = defineCommand<ServeArgs>({
  command: 'serve',
  describe: 'Run the reference implementation with a generated tenant and write its target profile',
  builder: (y) => y.options(SERVE_OPTIONS) as never,
  run: async (args) => (await import('./serve-handler.js')).serveHandler(args),
});

