/**
 * `createTargetClient`: the TargetClient contract over one transport, one recorder, one token cache and the
 * target's clock. Suites get one per worker; users' own tests create their own.
 */
import { HarnessError } from '../errors.js';
import { randomSeed } from '../data/seed.js';
import type { ListenerKey, ResolvedProfile } from '../profile/types.js';
import { ApiCalls } from './api.js';
import { RequestFirewall } from './firewall.js';
import { targetOutbound } from './outbound.js';
import { TargetClock, createHooks } from './hooks.js';
import { tokenBucket, unlimited } from './rate-limit.js';
import { profileSecrets } from './profile-secrets.js';
import { createRecorder, isInternalRecorder, type InternalRecorder } from './recorder.js';
import { TokenManager } from './tokens.js';
import { createTransport, type Transport } from './transport.js';
import type { TransportRequest } from './transport-request.js';
import type { ClientOptions, ExchangeRecorder, TargetClient, WebhookOptions } from './types.js';
import { buildWebhook, type WebhookAuth } from './webhooks.js';
import { RecipeContext } from './replay-context.js';
import type { ReplayRecipe } from './replay-note.js';
import { requestRecipe, webhookRecipe, type WebhookRecipeInput } from './replay-recipe.js';

export { DEFAULT_TIMEOUT_MS } from '../defaults.js';
import { DEFAULT_TIMEOUT_MS } from '../defaults.js';
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** A recorder made by someone else (a user's own implementation): wrap it so the transport can record. */
function adoptRecorder(given: ExchangeRecorder | undefined, profile: ResolvedProfile, recordBodyBytes: number | undefined): InternalRecorder {
  const secrets = profileSecrets(profile);
  if (given === undefined) return createRecorder({ secrets, recordBodyBytes });
  if (!isInternalRecorder(given)) {
    throw new HarnessError('USAGE', 'ClientOptions.recorder must come from createRecorder()', {
      hint: 'Create it with createRecorder({ secrets: profile.secrets }) so exchanges are redacted before they are stored.',
    });
  }
  for (const secret of secrets) given.addFixedSecret(secret);
  return given;
}

function listenerAuth(profile: ResolvedProfile, key: ListenerKey): { listenerId: string; auth: WebhookAuth } {
  const listener = profile.webhooks[key];
  if (!listener) {
    throw new HarnessError('USAGE', `the profile has no webhooks.${key} listener`, {
      field: `webhooks.${key}`,
      hint: `Add webhooks.${key} to the target profile, or do not run the checks that need it.`,
    });
  }
  if ('secret' in listener) return { listenerId: listener.listenerId, auth: { hmacSecret: listener.secret } };
  return { listenerId: listener.listenerId, auth: { jwtKeys: listener.signingKeys } };
}

/**
 * The transport settings of a client object made for this profile (timeouts, TLS, pacing, recorder), with
 * the guard that is its one way out (outbound.ts): every request of that client passes it before each attempt.
 */
export function profileTransport(profile: ResolvedProfile, options: ClientOptions, recorder: InternalRecorder, guard: (req: TransportRequest) => void): Transport {
  return createTransport({
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ca: profile.tls.ca,
    insecureSkipVerify: profile.tls.insecureSkipVerify,
    pacer: options.rateLimit ? tokenBucket(options.rateLimit) : unlimited,
    recorder,
    max429Retries: options.max429Retries,
    ...(options.retryAfterCapMs === undefined ? {} : { retryAfterCapMs: options.retryAfterCapMs }),
    ...(options.onRequestOutcome ? { onOutcome: options.onRequestOutcome } : {}),
    // A refusal names the request: its text goes through the recorder's redaction like every other message.
    guard: (req) => {
      try {
        guard(req);
      } catch (error) {
        if (!(error instanceof HarnessError)) throw error;
        throw new HarnessError(error.code, recorder.redact(error.message), { ...(error.hint ? { hint: error.hint } : {}), ...(error.field ? { field: error.field } : {}) });
      }
    },
  });
}

export function createTargetClient(profile: ResolvedProfile, options: ClientOptions = {}): TargetClient {
  const recorder = adoptRecorder(options.recorder, profile, options.recordBodyBytes);
  const firewall = new RequestFirewall(profile.baseUrl, options.readOperations);
  // Bound once the token manager exists (below): it knows which bearer values are the run's access tokens.
  const transport = profileTransport(profile, options, recorder, (req) => outbound(req));
  const hooksImpl = createHooks(profile, transport);
  const clock = new TargetClock(hooksImpl);
  if (hooksImpl) hooksImpl.onClock = (now) => clock.observe(now);
  const now = (): Promise<number> => clock.now();
  const recipes = new RecipeContext(profile, recorder);
  const tokens = new TokenManager(profile, transport, recorder, now, recipes);
  const outbound = targetOutbound({
    baseUrl: profile.baseUrl,
    ...(profile.hooks ? { hooks: profile.hooks } : {}),
    isReadPost: (path) => firewall.isReadPost(path),
    isAccessToken: (value) => tokens.isIssued(value),
  });
  const api = new ApiCalls(firewall, transport, tokens, recorder, options.tokenMethod ?? 'secret', recipes);
  const seed = options.seed ?? randomSeed();
  /** Default bodies built so far in each scope: the n-th body of a scope is the same for one seed. */
  const bodiesByScope = new Map<string, number>();

  const send = async (target: WebhookRecipeInput['target'], listenerId: string, auth: WebhookAuth, webhookOptions: WebhookOptions = {}) => {
    // Numbered when the call is made, before any await: a check's calls keep their order whatever else runs.
    const scope = options.scope?.() ?? '';
    const number = (bodiesByScope.get(scope) ?? 0) + 1;
    bodiesByScope.set(scope, number);
    // Also before any await: of duplicates sent in parallel, the first called is the first (replay-context.ts).
    const given = webhookOptions.eventId === undefined ? undefined : recipes.claim(webhookOptions.eventId);
    let settled = false;
    const settle = (recipe: ReplayRecipe | undefined): void => {
      if (!settled) given?.settle(recipe);
      settled = true;
    };
    try {
      return await sendBuilt(target, listenerId, auth, webhookOptions, `${scope}/webhook/${number}`, given, settle);
    } finally {
      // On every way out: a later duplicate waits for the first one's recipe.
      settle(undefined);
    }
  };

  const sendBuilt = async (
    target: WebhookRecipeInput['target'],
    listenerId: string,
    auth: WebhookAuth,
    webhookOptions: WebhookOptions,
    bodyScope: string,
    given: ReturnType<RecipeContext['claim']> | undefined,
    settle: (recipe: ReplayRecipe | undefined) => void,
  ) => {
    // The target's clock (read once, then kept as an offset): the default timestamp and the JWT times are
    // built from it, and a timestamp the check gives is written in the recipe relative to it.
    const builtAt = await now();
    const built = await buildWebhook(listenerId, auth, webhookOptions, {
      baseUrl: profile.baseUrl,
      webhookBaseUrl: profile.webhookBaseUrl,
      now: builtAt,
      seed,
      scope: bodyScope,
    });
    for (const secret of built.secrets) recorder.addSecret(secret);
    // A credential sent again in a repeated header line is as secret as the first line's.
    const repeatedCredentials = Object.entries(webhookOptions.repeatHeaders ?? {})
      .filter(([name]) => CREDENTIAL_LINES.has(name.toLowerCase()))
      .flatMap(([, values]) => values);
    const ephemeral = [...built.ephemeral, ...repeatedCredentials];
    for (const value of ephemeral) recorder.addEphemeralSecret(value);
    // Written after the secrets are known, so the recipe is checked against every one of them.
    // A generated ID is claimed now: a later request of the check may repeat it.
    const claim = given ?? recipes.claim(built.eventId);
    const before = await claim.earlier();
    const replay = webhookRecipe({ target, options: webhookOptions, body: built.body, eventId: built.eventId, earlier: () => before }, recipes.encoding(builtAt));
    if (given === undefined) claim.settle('recipe' in replay ? replay.recipe : undefined);
    else settle('recipe' in replay ? replay.recipe : undefined);
    return transport.send({
      replay,
      method: built.method,
      url: built.url,
      headers: built.headers,
      body: built.body,
      label: webhookOptions.label ?? `webhook to ${listenerId}`,
      ...(webhookOptions.repeatHeaders ? { repeatedHeaders: webhookOptions.repeatHeaders } : {}),
      ephemeral,
    });
  };

  const client: TargetClient = {
    profile,
    recorder,
    ...(hooksImpl
      ? {
          hooks: {
            now: () => hooksImpl.now(),
            // Once the clock moved, the cached offset is stale: the next timestamp reads the clock again.
            advance: async (seconds: number) => {
              clock.invalidate();
              recipes.noteClockMove(seconds);
              return hooksImpl.advance(seconds);
            },
            runs: (listenerId: string) => hooksImpl.runs(listenerId),
            probe: () => hooksImpl.probe(),
          },
        }
      : {}),
    async request(req) {
      const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(req.url) ? req.url : `${profile.baseUrl}${req.url.startsWith('/') ? '' : '/'}${req.url}`;
      return transport.send({
        replay: requestRecipe({ method: req.method, url, headers: req.headers ?? {}, ...(req.body === undefined ? {} : { body: req.body }) }, recipes.encoding()),
        method: req.method,
        url,
        headers: { ...(req.headers ?? {}) },
        body: req.body,
        label: req.label,
        timeoutMs: req.timeoutMs,
        retryOn429: req.retryOn429,
        ...(req.maxResponseBytes === undefined ? {} : { maxResponseBytes: req.maxResponseBytes }),
      });
    },
    requestToken: (tokenOptions) => tokens.requestToken(tokenOptions),
    token: (credential, method) => tokens.token(credential, method),
    resetTokens: () => tokens.reset(),
    ownerIds: (appId, callOptions) => api.ownerIds(appId, callOptions),
    entitlementsPage: (appId, pageOptions) => api.entitlementsPage(appId, pageOptions),
    apiCall: (request, callOptions = {}) => api.call(request, callOptions, `${request.method} ${request.path.split('?')[0]}`),
    operationCall: (request, callOptions = {}) => api.operation(request, callOptions, `${request.operation.method.toUpperCase()} ${request.operation.path}`),
    walkEntitlements: (appId, walkOptions) => api.walk(appId, walkOptions),
    entitlements: (appId, walkOptions) => api.items(appId, walkOptions),
    // async so a profile without the listener rejects instead of throwing synchronously.
    async sendWebhook(key, webhookOptions) {
      const { listenerId, auth } = listenerAuth(profile, key);
      return send({ listener: key }, listenerId, auth, webhookOptions);
    },
    sendWebhookTo(listenerId, auth, webhookOptions) {
      return send({ listenerId, auth }, listenerId, auth, webhookOptions);
    },
    now,
    close: () => transport.close(),
  };
  return client;
}

/** Headers whose repeated lines carry a credential of the request (redacted like the first line). */
const CREDENTIAL_LINES = new Set(['webhook-signature', 'authorization']);

/** One reading of the target's clock hook (test-hooks.md), paired with local time. */
export interface ClockReading {
  /** The target's Unix seconds. */
  target: number;
  /** Local Unix seconds at the middle of the read's round trip: the best guess of when the target read it. */
  local: number;
}

/**
 * Reads `GET /clock` once through a client of its own, bounded by `timeoutMs`, never retried. Fails as a
 * HarnessError (HOOK_BROKEN, a transport code) or, when the profile declares no hooks, USAGE.
 */
export async function readTargetClock(profile: ResolvedProfile, timeoutMs: number): Promise<ClockReading> {
  const client = createTargetClient(profile, { timeoutMs, connectTimeoutMs: timeoutMs, max429Retries: 0 });
  try {
    if (!client.hooks) throw new HarnessError('USAGE', 'the profile declares no test hooks to read the clock from', { field: 'hooks' });
    const before = Date.now();
    const target = await client.hooks.now();
    return { target, local: (before + Date.now()) / 2000 };
  } finally {
    await client.close();
  }
}
