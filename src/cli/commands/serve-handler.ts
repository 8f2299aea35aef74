/**
 * What `serve` does once its flags parsed: validate them, start the sandbox under a run scope (phases
 * state, embedded reference, keys, serving), print the cheat-sheet, serve until SIGINT, SIGTERM or
 * --max-duration.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { HarnessError } from '../../errors.js';
import { openRunScope } from '../../stop/scope.js';
import { untilStopped } from '../../stop/race.js';
import { openStop } from '../../stop/source.js';
import { Stopped, stopExitCode } from '../../stop/reason.js';
import type { StateDirHandle } from '../../state/index.js';
import { formatDuration } from '../../values.js';
import { shellLiteral } from '../../escape.js';
import { combineFaults } from '../../faults/index.js';
import { resolveWrapper, type ServedWrapper } from './served-wrappers.js';
import { consoleLines, type ConsoleMode } from '../../sandbox/console-lines.js';
import { diagnosingCustomize } from '../../sandbox/diagnosing-handler.js';
import { startSandbox, type Sandbox } from '../../tenant/sandbox.js';
import { developerJwks, parseJwksUrlFlag, readJwksCaFlag } from '../../tenant/developer-jwks.js';
import { createInspection } from '../../sandbox/inspection.js';
import { UNREACHABLE_CIDRS } from '../../tenant/generate.js';
import { sandboxProfileFiles } from '../../tenant/profile.js';
import type { ServeOptions } from './serve-options.js';
import { SERVE_LISTS, renderServeList, type ServeListName } from './serve-lists.js';

export async function serveHandler(args: ServeOptions): Promise<number> {
  const listed = (Object.keys(SERVE_LISTS) as ServeListName[]).find((name) => args[name]);
  if (listed !== undefined) {
    process.stdout.write(renderServeList(SERVE_LISTS[listed]));
    return 0;
  }
  const options = validate(args);
  // One run scope (stop/scope.ts) from here: SIGINT / SIGTERM and a start-up bound hold while the state
  // folder opens and the sandbox starts (keys, listening). --max-duration is not its deadline: for serve it
  // is how long to serve, counted once the sandbox is up, and ends it with 0.
  const scope = openRunScope({ what: 'the sandbox', stopping: 'stopping the sandbox', startUp: {} });
  let state: StateDirHandle | undefined;
  let sandbox: Sandbox | undefined;
  // Last registered runs first: the sandbox stops before its state folder closes.
  scope.onCleanup('close the state folder', async () => state?.close());
  scope.onCleanup('stop the sandbox', async () => sandbox?.close());
  try {
    if (options.stateDir !== undefined) {
      await scope.enter('state');
      // Loaded only when asked for: without --state-dir, serve never loads the database.
      const opening = import('../../state/index.js').then((module) => module.openStateDir(options.stateDir!, { repair: args.stateRepair, logger: (line) => process.stderr.write(`${line}\n`) }));
      // Opened after a stop: closed at once (its lock must not outlive the command).
      state = await untilStopped(opening, scope.signal, (late) => void late.close());
    }
    await scope.enter('embedded reference');
    const jwksCaPem = args.jwksCa === undefined ? undefined : await readJwksCaFlag(args.jwksCa);
    // Outermost last: the inspector's page and observers see what the client got, faults included.
    const inspection = createInspection({
      cheatSheet: () => (sandbox === undefined ? '' : describeSandbox(sandbox, options.faults, inspection.inspector?.url)),
      curlArgs: () => (sandbox?.tenant.apiTls ? ['--cacert', shellLiteral(join(dirname(sandbox.profilePath), sandboxProfileFiles(sandbox.profilePath).caFile))] : []),
    });
    // A line per refused request (every request with --verbose, none with --quiet), counts under a flood.
    const lines = consoleLines({ mode: consoleMode(args), write: (text) => void process.stdout.write(text) });
    scope.onCleanup('print the last counts', async () => lines.flush());
    inspection.observers.push(lines.observe);
    // Each refusal names the client's mistake, except while a fault is served: a fault refuses on purpose
    // what a client got right, and a sentence naming the client's mistake would mislead.
    const diagnoses = options.faults.length === 0 ? [{ customize: diagnosingCustomize() }] : [];
    const customize = combineFaults([{ customize: developerJwks({ url: options.jwksUrl, caPem: jwksCaPem }) }, ...options.faults, ...diagnoses, { customize: inspection.customize }]);
    const starting = startSandbox({ ...options, state, customize, onKeys: () => scope.enter('keys') });
    sandbox = await untilStopped(starting, scope.signal, (late) => void late.close());
    scope.startedUp();
    await scope.enter('serving');
    process.stdout.write(`${describeSandbox(sandbox, options.faults, inspection.inspector?.url)}Press Ctrl-C to stop.\n${readyLine(sandbox, inspection.inspector?.url)}`);
    const why = await servingUntil(scope.signal, args.maxDuration);
    if (why === 'deadline') process.stdout.write(`--max-duration reached after ${formatDuration(args.maxDuration ?? 0)}\n`);
    process.stdout.write('Stopping the sandbox...\n');
    return 0;
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
    // Stopped while starting: interrupted (130 / 143), or the start-up bound (2), naming the phase.
    const { code, message, signal, phase } = error.reason;
    process.stderr.write(`${new HarnessError(code, `${message}${signal ? ` while it started (phase "${phase}")` : ''}`).format()}\n`);
    return stopExitCode(error.reason);
  } finally {
    await scope.close();
  }
}

function consoleMode(args: Pick<ServeOptions, 'quiet' | 'verbose'>): ConsoleMode {
  if (args.quiet) return 'none';
  return args.verbose ? 'all' : 'refused';
}

interface SandboxSettings {
  seed?: string;
  port: number;
  host: string;
  /** --profile-out, else the folder of --out (the sandbox names the file sandbox.target.json). */
  profilePath?: string;
  profileDir: string;
  /** --timeout: how long the reference waits for a JWKS document it fetches. */
  jwksTimeoutMs: number;
  hooks: boolean;
  publicBaseUrl?: string;
  jwksHost?: string;
  secretDomain: string;
  tls: boolean;
  /** Faults, variants or stacks (`--fault`), first named innermost. */
  faults: ServedWrapper[];
  /** --state-dir: the database directory, absolute. */
  stateDir?: string;
  /** --jwks-url, checked: the `jwt` listener's JWKS URL. */
  jwksUrl?: string;
}

function validate(args: ServeOptions): SandboxSettings {
  let publicBaseUrl: string | undefined;
  if (args.publicUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(args.publicUrl);
    } catch {
      url = undefined;
    }
    if (url === undefined || !/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search !== '') {
      throw new HarnessError('USAGE', `--public-url must be an http(s) base URL without a path, e.g. http://203.0.113.7:8080 (got "${args.publicUrl}")`, {
        field: '--public-url',
      });
    }
    publicBaseUrl = url.origin;
    if (args.tls && url.protocol !== 'https:') {
      throw new HarnessError('USAGE', `--tls serves HTTPS, so --public-url must be an https URL (got "${args.publicUrl}")`, { field: '--public-url' });
    }
  }
  const jwksHost = args.jwksHost;
  if (jwksHost !== undefined && !/^[A-Za-z0-9.\-:]+$/.test(jwksHost)) {
    throw new HarnessError('USAGE', `--jwks-host must be a hostname or IP address (got "${jwksHost}")`, { field: '--jwks-host' });
  }
  const secretDomain = args.secretDomain;
  // The secret is four colon-separated parts: the segment can hold neither ":" nor whitespace.
  if (!/^[A-Za-z0-9.\-]+$/.test(secretDomain)) {
    throw new HarnessError('USAGE', `--secret-domain must be a domain name: letters, digits, "." and "-" (got "${secretDomain}")`, {
      field: '--secret-domain',
    });
  }
  const faults = args.fault.map((name) => resolveWrapper(name));
  if (args.stateRepair && args.stateDir === undefined) throw new HarnessError('USAGE', '--state-repair repairs the directory of --state-dir: name it', { field: '--state-repair' });
  if (args.jwksCa !== undefined && args.jwksUrl === undefined && !args.hooks) {
    throw new HarnessError('USAGE', '--jwks-ca trusts a private CA for the JWKS of --jwks-url (or of the x-jwks-url hook, with --hooks): name one', { field: '--jwks-ca' });
  }
  return {
    seed: args.seed,
    port: args.port,
    host: args.host,
    ...(args.profileOut === undefined ? {} : { profilePath: args.profileOut }),
    profileDir: args.out,
    jwksTimeoutMs: args.timeout,
    hooks: args.hooks,
    publicBaseUrl,
    jwksHost,
    secretDomain,
    tls: args.tls,
    faults,
    ...(args.stateDir === undefined ? {} : { stateDir: stateDirPath(args.stateDir) }),
    ...(args.jwksUrl === undefined ? {} : { jwksUrl: parseJwksUrlFlag(args.jwksUrl) }),
  };
}

function stateDirPath(value: string): string {
  if (value.trim() === '') throw new HarnessError('USAGE', '--state-dir needs a directory path', { field: '--state-dir' });
  return resolve(value);
}

/**
 * The line scripts read (the only stdout line that starts with `{`, docs/sandbox.md): where the sandbox is,
 * its inspector and its profile (absolute). The inspector's token is in its URL; no secret is.
 */
export function readyLine(sandbox: Sandbox, inspector: string | undefined): string {
  return `${JSON.stringify({ ready: true, baseUrl: sandbox.baseUrl, inspector: inspector ?? null, profile: sandbox.profilePath })}\n`;
}

/** What a user needs to start talking to the sandbox: addresses and IDs, never a secret. */
export function describeSandbox(sandbox: Sandbox, faults: readonly ServedWrapper[] = [], inspector?: string): string {
  const { tenant } = sandbox;
  const l = tenant.listeners;
  const a = tenant.apps;
  const counted = (app: { appId: string; entitlements: unknown[] }): string => `${app.appId} (${app.entitlements.length})`;
  const fromCwd = relative(process.cwd(), sandbox.profilePath);
  const shownProfile = fromCwd === '' || fromCwd.startsWith('..') ? sandbox.profilePath : fromCwd;
  const row = (key: string, id: string, note: string): string => `  ${key.padEnd(19)} ${id.padEnd(14)} ${note}\n`;
  const lines = [
    `access-conformance reference sandbox (seed ${sandbox.seed})\n`,
    `  base URL:  ${sandbox.baseUrl}\n`,
    `  secrets:   service domain "${tenant.secretDomain}" (--secret-domain to change)\n`,
    `  profile:   ${shownProfile}  (holds this sandbox's secrets)\n`,
    ...(inspector === undefined ? [] : [`  inspector: ${inspector}  (the latest requests, live; keep the address to yourself)\n`]),
    `  hooks:     ${tenant.hooks.enabled ? `on at ${sandbox.baseUrl}/__hooks/v1 (token in the profile)` : 'off (--hooks to offer them)'}\n`,
    ...(sandbox.statePath === undefined ? [] : [`  state:     ${sandbox.statePath} (tenant, records, runs and clock kept across restarts)\n`]),
    `  faults:    ${faults.length > 0 ? faults.map((f) => (f.kind === 'fault' ? f.name : `${f.name} (legitimate ${f.kind})`)).join(', ') : 'none'}\n`,
    `  refusals:  ${faults.length > 0 ? 'as the fault answers them (no diagnosis while a fault is served)' : 'each names the client\'s mistake ("mistake", error_description; serve --list-mistakes)'}\n`,
    ...(tenant.reference.jwksTimeoutMs === undefined ? [] : [`  timeout:   the reference waits up to ${formatDuration(tenant.reference.jwksTimeoutMs)} for a JWKS document (--timeout)\n`]),
    `Token endpoint: POST ${sandbox.baseUrl}/auth/v1/token (client_credentials; client_secret or EdDSA client_assertion with aud "${tenant.tenantDomain}")\n`,
    `Webhook listeners: POST ${sandbox.baseUrl}/api/v1/webhooks/incoming/<listener ID>\n`,
    row('hmac', l.hmac.listenerId, 'HMAC'),
    row('hmacSecond', l.hmacSecond.listenerId, 'HMAC (event IDs are per listener)'),
    row('jwt', l.jwt.listenerId, jwtListenerNote(tenant)),
    row('jwtUnreachableJwks', l.jwtUnreachableJwks.listenerId, 'JWT; JWKS URL is a closed port (always 401)'),
    row('ipRestricted', l.ipRestricted.listenerId, `HMAC; allowed CIDRs ${UNREACHABLE_CIDRS.join(', ')} (403 from here)`),
    row('inactive', l.inactive.listenerId, 'HMAC; trigger disabled (422, the automation does not run)'),
    `Apps: owners ${a.owners.appId}; entitlements ${counted(a.large)} / ${counted(a.exact)} / ${counted(a.empty)}; missing ${a.missingAppId}; ${a.more.length} more\n`,
    `Lists and searches: GET /api/v1/apps, POST /api/v1/search/apps, /entitlements, /users (page size and token in the JSON body); description at ${sandbox.openapiUrl}\n`,
    ...(tenant.apiTls ? [`TLS: the API speaks HTTPS; trust the local CA ${caPath(sandbox, shownProfile)}\n`] : []),
    sdkSnippet(sandbox, shownProfile),
  ];
  return lines.join('');
}

/** Where the `jwt` listener fetches its JWKS: the tenant's (the harness serves it) or the developer's own. */
function jwtListenerNote(tenant: Sandbox['tenant']): string {
  const url = tenant.listeners.jwt.config.jwksUrl;
  if (url === tenant.jwks.url) return `JWT; JWKS fetched from ${url}: serve it yourself with the cert/key files next to the profile, or your own with --jwks-url (https; plain http only on loopback)`;
  return `JWT; JWKS fetched from your ${url} (--jwks-url; https, or plain http on a loopback address only); the profile's JWT keys are not in it`;
}

function caPath(sandbox: Sandbox, shownProfile: string): string {
  return join(dirname(shownProfile), sandboxProfileFiles(sandbox.profilePath).caFile);
}

/**
 * Ready-to-paste clients: the official TypeScript SDK (it reads the secret from the profile, so the secret
 * itself is never printed) and a `send` command.
 */
function sdkSnippet(sandbox: Sandbox, shownProfile: string): string {
  const { tenant } = sandbox;
  const quoted = JSON.stringify(shownProfile);
  const ca = tenant.apiTls ? caPath(sandbox, shownProfile) : undefined;
  return [
    'Official TypeScript SDK (npm i conductorone-sdk-typescript), unmodified:\n',
    ...(ca ? [`  // run with NODE_EXTRA_CA_CERTS=${ca} (Go: SSL_CERT_FILE, Python requests: REQUESTS_CA_BUNDLE)\n`] : []),
    "  import { readFileSync } from 'node:fs';\n",
    "  import { ConductoroneSDKTypescript } from 'conductorone-sdk-typescript';\n",
    `  const profile = JSON.parse(readFileSync(${quoted}, 'utf8'));\n`,
    `  const sdk = new ConductoroneSDKTypescript({ serverURL: '${sandbox.baseUrl}', clientID: '${tenant.credentials.primary.clientId}',\n`,
    '    clientSecret: profile.credentials.primary.clientSecret });\n',
    `  const owners = await sdk.appOwners.listOwnerIDs({ appId: '${tenant.apps.owners.appId}' });\n`,
    'Send one signed webhook:\n',
    `  access-conformance send --profile ${shellLiteral(shownProfile)} --listener hmac --data '{"user":"u-1","action":"offboard"}'\n`,
  ].join('');
}

/**
 * Until the scope stops (SIGINT, SIGTERM, or the npm/npx wrapper's death: stop/signals.ts), or
 * `maxDurationMs` when given.
 */
async function servingUntil(stopped: AbortSignal, maxDurationMs: number | undefined): Promise<'signal' | 'deadline'> {
  const until = openStop(stopped);
  if (maxDurationMs !== undefined) until.deadline(maxDurationMs, () => ({ code: 'DEADLINE', message: `served for --max-duration ${formatDuration(maxDurationMs)}` }));
  if (!until.signal.aborted) await new Promise((resolve) => until.signal.addEventListener('abort', resolve, { once: true }));
  until.close();
  return stopped.aborted ? 'signal' : 'deadline';
}
