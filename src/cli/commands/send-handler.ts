/** What `send` does once its flags parsed: build the one webhook, send it (or print it), show the answer. */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { startProfileJwksServers } from '../../client/jwks-server.js';
import { createTargetClient } from '../../client/target-client.js';
import type { WebhookAuth } from '../../client/webhooks.js';
import { buildWebhook, defaultWebhookBody } from '../../client/webhooks.js';
import type { WebhookOptions } from '../../client/types.js';
import { generateHmacSecret } from '../../crypto/hmac.js';
import { generateSigningKey } from '../../crypto/signing-keys.js';
import { sha256Base64Url } from '../../crypto/encoding.js';
import { randomSeed } from '../../data/seed.js';
import { HarnessError } from '../../errors.js';
import { loadProfile } from '../../profile/load.js';
import type { ResolvedProfile } from '../../profile/types.js';
import { parseSendArgs, type SendOptions, type SendPlan } from './send-options.js';
import { shellLiteral } from '../../escape.js';
import { readBody, showResponseBody } from './send-text.js';
import { exchangePath, expectedAnswer, isJson, prepareOut, sendExitCode, writeExchange, type ExpectedAnswer } from './send-outcome.js';
import { openRunScope, type RunScope } from '../../stop/scope.js';
import { untilStopped } from '../../stop/race.js';
import { Stopped, stopExitCode } from '../../stop/reason.js';
import { formatDuration } from '../../values.js';

export async function sendHandler(args: SendOptions): Promise<number> {
  const plan = parseSendArgs(args);
  // One run scope (stop/scope.ts): --max-duration (else a start-up bound) and SIGINT / SIGTERM hold in every
  // phase; either aborts `scope.signal`, which closes the client and so cuts the request in flight, and the
  // exchange is still written (send's finally, awaited by the scope's cleanup).
  const scope = openRunScope({
    what: 'the send',
    stopping: 'stopping the send and writing its exchange',
    ...(plan.maxDurationMs === undefined ? { startUp: {} } : { maxDurationMs: plan.maxDurationMs }),
  });
  const sending = send(plan, scope);
  scope.onCleanup('write the exchange', () => sending.then(() => undefined, () => undefined));
  try {
    return await untilStopped(sending, scope.signal);
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
    const { code, signal, phase } = error.reason;
    if (signal) {
      process.stderr.write(`${new HarnessError(code, `${error.reason.message} (phase "${phase}")`).format()}\n`);
      return stopExitCode(error.reason);
    }
    const message = plan.maxDurationMs === undefined ? error.reason.message : `send did not finish within ${formatDuration(plan.maxDurationMs)} (--max-duration) in phase "${phase}"`;
    throw new HarnessError('DEADLINE', message, {
      field: '--max-duration',
      hint: 'The target, its clock hook or its token endpoint did not answer in time; raise --max-duration or check the target.',
    });
  } finally {
    await scope.close();
  }
}

/** The request is about to go: start-up is over (its bound no longer applies; --timeout bounds the request). */
async function sendingPhase(scope: RunScope): Promise<void> {
  scope.startedUp();
  await scope.enter('sending');
}

async function send(plan: SendPlan, scope: RunScope): Promise<number> {
  const expired = scope.signal;
  if (plan.replay !== undefined) {
    await sendingPhase(scope);
    return (await import('./send-replay.js')).sendReplay({ ...plan, replay: plan.replay }, expired);
  }
  await scope.enter('profile');
  const profile = await loadProfile(plan.profilePath);
  const listener = profile.webhooks[plan.listener];
  if (listener === undefined) {
    throw new HarnessError('USAGE', `the profile has no webhooks.${plan.listener} listener`, {
      field: '--listener',
      hint: `Listeners in this profile: ${Object.keys(profile.webhooks).join(', ') || 'none'}.`,
    });
  }
  const auth: WebhookAuth = 'secret' in listener ? { hmacSecret: listener.secret } : { jwtKeys: listener.signingKeys };
  const limit = profile.limits.webhookBodyBytes;
  const seed = plan.seed ?? randomSeed();
  const body = 'none' in plan.body
    ? Buffer.from(JSON.stringify(defaultWebhookBody(seed, 'send')), 'utf8')
    : await readBody(plan.body, limit);
  checkBody(body, limit, plan.raw);
  await scope.enter('keys');
  const options = await breakOptions(plan, auth, body);
  await prepareOut(plan.outDir);
  await sendingPhase(scope);

  const client = createTargetClient(profile, plan.client);
  // --max-duration: closing the client cuts whatever it is waiting for.
  expired.addEventListener('abort', () => void client.close(), { once: true });
  let expected: ExpectedAnswer | undefined;
  try {
    // The clock hook is read only when something is built from it (a JWT, or the default timestamp).
    const now = plan.timestamp === undefined || 'jwtKeys' in auth ? await client.now() : Date.now() / 1000;
    const built = await buildWebhook(listener.listenerId, auth, options, {
      baseUrl: profile.baseUrl,
      webhookBaseUrl: profile.webhookBaseUrl,
      now,
      seed,
      scope: 'send',
    });
    expected = expectedAnswer({
      listener: plan.listener,
      breaks: plan.breaks,
      bodyIsJson: !plan.raw || isJson(body),
      eventIdGiven: plan.eventId !== undefined,
      ...(plan.timestamp === undefined ? {} : { timestamp: plan.timestamp }),
      now,
    });
    for (const secret of built.secrets) client.recorder.addSecret(secret);
    const method = 'secret' in listener ? 'HMAC' : 'JWT';
    const broken = plan.breaks.length > 0 ? `, broken: ${plan.breaks.join(', ')}` : '';
    if (plan.dryRun) {
      process.stdout.write(`# ${method} webhook to ${plan.listener}${broken}; event ID ${built.eventId}, timestamp ${built.timestamp}\n`);
      process.stdout.write(`${await curlCommand(built, profile, plan.profilePath)}\n`);
      return 0;
    }
    // The listener fetches its JWKS from the address the profile names; serve it for this one request.
    const jwks = plan.listener === 'jwt' ? await startProfileJwksServers(profile) : undefined;
    let response;
    try {
      response = await client.request({
        method: built.method,
        url: built.url,
        headers: built.headers,
        body: built.body,
        label: `send to ${plan.listener}`,
        retryOn429: false,
      });
    } finally {
      await jwks?.close();
    }
    process.stdout.write(`POST ${built.url}\n  ${method} listener ${plan.listener}${broken}; event ID ${built.eventId}; timestamp ${built.timestamp}; ${built.body.length} bytes\n`);
    process.stdout.write(`HTTP ${response.status}\n`);
    process.stdout.write(`  exchange (redacted): ${exchangePath(plan.outDir)}\n`);
    const text = showResponseBody(client.recorder.redact(response.body.toString('utf8')));
    if (text !== '') process.stdout.write(`${text}\n`);
    if (!expected.accepts(response.status)) process.stdout.write(`not the answer service.md gives for this request: expected ${expected.text}\n`);
    return sendExitCode(plan.strict, expected, response.status);
  } finally {
    await writeExchange(plan, client.recorder, expected);
    await client.close();
  }
}

/** The body must fit the listener's limit and, unless --raw, be JSON. Its text is never echoed. */
function checkBody(body: Buffer, limit: number, raw: boolean): void {
  if (body.length > limit) {
    throw new HarnessError('USAGE', `the body is larger than the listener's limit of ${limit} bytes (limits.webhookBodyBytes)`, {
      field: '--data',
      hint: 'Send a smaller body; the suites check the oversize answer (400 or 413) themselves.',
    });
  }
  if (raw) return;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    JSON.parse(text);
  } catch (error) {
    const where = error instanceof SyntaxError ? ` (${error.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 120)})` : ' (not UTF-8)';
    throw new HarnessError('USAGE', `the body is not valid JSON${where}`, {
      field: '--data',
      hint: 'Fix the JSON, or pass --raw to send it as it is (the target should answer 400).',
    });
  }
}

async function breakOptions(plan: SendPlan, auth: WebhookAuth, body: Buffer): Promise<WebhookOptions> {
  const options: WebhookOptions = { body };
  if (plan.eventId !== undefined) options.eventId = plan.eventId;
  if (plan.timestamp !== undefined) options.timestamp = plan.timestamp;
  const isJwt = 'jwtKeys' in auth;
  const otherBody = Buffer.concat([body, Buffer.from(' ')]);
  for (const name of plan.breaks) {
    if (name === 'signature') {
      if ('hmacSecret' in auth) options.hmac = { ...options.hmac, secret: generateHmacSecret() };
      else if (isJwt) {
        const key = auth.jwtKeys[0];
        if (key === undefined) throw new HarnessError('USAGE', 'the listener has no signing key in the profile', { field: '--listener' });
        // Same kid and alg, another key: the JWKS lookup succeeds and the signature check fails.
        options.jwt = { ...options.jwt, key: await generateSigningKey(key.alg, key.kid) };
      }
    } else if (name === 'body') {
      if ('hmacSecret' in auth) options.hmac = { ...options.hmac, signedBody: otherBody };
      else options.jwt = { ...options.jwt, claims: { ...options.jwt?.claims, htb_s256: sha256Base64Url(otherBody) } };
    } else if (name === 'timestamp') options.timestampOffset = -330;
    else if (name === 'event-id') options.eventId = 'not-a-uuid';
    else if (name === 'content-type') options.contentType = null;
    else if (name === 'auth') options.omitHeaders = ['webhook-signature', 'authorization'];
    else if (name === 'expired') {
      if (!isJwt) throw new HarnessError('USAGE', '--break expired applies to JWT listeners only', { field: '--break' });
      options.jwt = { ...options.jwt, expIn: -60 };
    }
  }
  return options;
}

/** The signed request as curl: headers as sent (signature or JWT included), the body inline, the CA if any. */
async function curlCommand(built: { url: string; headers: Record<string, string>; body: Buffer }, profile: ResolvedProfile, profilePath: string): Promise<string> {
  if (built.body.includes(0)) {
    throw new HarnessError('USAGE', 'the body holds a NUL byte, which a shell argument cannot carry', { field: '--dry-run', hint: 'Send it without --dry-run.' });
  }
  const parts = ['curl', '-sS', '-i', '-X', 'POST', shellLiteral(built.url)];
  const caFile = profile.tls.ca === undefined ? undefined : await caFileOf(profilePath);
  if (caFile !== undefined) parts.push('--cacert', shellLiteral(caFile));
  for (const [name, value] of Object.entries(built.headers)) parts.push('-H', shellLiteral(`${name}: ${value}`));
  parts.push('--data-binary', shellLiteral(built.body.toString('utf8')));
  return parts.join(' ');
}

/** tls.caFile as written in the profile, resolved like the loader resolves it. */
async function caFileOf(profilePath: string): Promise<string | undefined> {
  const doc = JSON.parse(await readFile(profilePath, 'utf8')) as { tls?: { caFile?: unknown } };
  const file = doc.tls?.caFile;
  return typeof file === 'string' ? resolve(dirname(profilePath), file) : undefined;
}
