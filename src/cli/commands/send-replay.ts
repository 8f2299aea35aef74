/**
 * `send --replay FILE`: a failure's reproduction (reporters/reproductions.ts) sent again, signed anew: a
 * fresh timestamp from the target's clock, a fresh event ID unless the check is about it, the same body and
 * the same spoiled rule, the credentials the profile given names. Exit 0 when the answer's status is the
 * one the run recorded (the failure reproduces), 1 when it is not.
 */
import { dirname, resolve } from 'node:path';
import { startProfileJwksServers } from '../../client/jwks-server.js';
import { replay } from '../../client/replay.js';
import { recipeBodyHolder } from '../../client/replay-recipe.js';
import { createTargetClient } from '../../client/target-client.js';
import type { ReplayRecipe } from '../../client/types.js';
import type { ReadOperation } from '../../client/firewall.js';
import { loadOperationPlan } from '../../engine/operations.js';
import { HarnessError } from '../../errors.js';
import type { ResolvedProfile } from '../../profile/types.js';
import { loadProfile } from '../../profile/load.js';
import { REPRODUCTION_FORMAT, type ReproductionFile } from '../../reporters/reproductions.js';
import { oneLine } from '../../escape.js';
import type { SendPlan } from './send-options.js';
import { exchangePath, prepareOut, writeExchange } from './send-outcome.js';
import { readBody, showResponseBody } from './send-text.js';

/** A recipe holds at most a 64 KiB body (as base64) and some options: far below this. */
const MAX_RECIPE_BYTES = 4 * 1024 * 1024;
/** A body file beside a recipe: the largest body a check sends is a little over the 64 KiB limit. */
const MAX_BODY_FILE_BYTES = 16 * 1024 * 1024;

const invalid = (message: string): HarnessError =>
  new HarnessError('USAGE', `${message}`, { field: '--replay', hint: 'Give a file a run wrote under <out>/reproductions/ (each failed check\'s "reproduce:" line names it).' });

async function readRecipe(path: string): Promise<ReproductionFile> {
  const bytes = await readBody({ file: path }, MAX_RECIPE_BYTES).catch((error: unknown) => {
    throw error instanceof HarnessError ? invalid(`cannot read the reproduction ${oneLine(path).slice(0, 200)}`) : error;
  });
  if (bytes.length > MAX_RECIPE_BYTES) throw invalid('the reproduction file is larger than any run writes');
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid('the reproduction file is not JSON');
  }
  const file = doc as Partial<ReproductionFile>;
  if (file.format !== REPRODUCTION_FORMAT || file.version !== 1 || typeof file.recipe !== 'object' || file.recipe === null) {
    throw invalid(`not a reproduction file (format ${REPRODUCTION_FORMAT}, version 1)`);
  }
  return file as ReproductionFile;
}

/** A body moved beside the recipe (`{"$file": NAME}`) read back as bytes; only a plain name in the same folder. */
async function inlineBodyFile(recipe: ReplayRecipe, folder: string): Promise<ReplayRecipe> {
  const holder = recipeBodyHolder(recipe);
  const body = holder?.body as { $file?: unknown } | undefined;
  if (holder === undefined || typeof body !== 'object' || body === null || body.$file === undefined) return recipe;
  if (typeof body.$file !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(body.$file)) throw invalid('the body file must be a plain name beside the reproduction');
  const bytes = await readBody({ file: resolve(folder, body.$file) }, MAX_BODY_FILE_BYTES);
  if (bytes.length > MAX_BODY_FILE_BYTES) throw invalid('the body file is larger than any run writes');
  holder.body = { $bytes: bytes.toString('base64') };
  return recipe;
}

function usesJwtListener(recipe: ReplayRecipe): boolean {
  return recipe.kind === 'webhook' && (typeof recipe.listener === 'string' ? recipe.listener.startsWith('jwt') : JSON.stringify(recipe.listener.auth).includes('jwtKeys'));
}

/** The reads of the profile's plan, loaded only for a recipe that POSTs a request (a search's page). */
async function replayReads(recipe: ReplayRecipe, profile: ResolvedProfile, plan: SendPlan): Promise<ReadOperation[]> {
  if (recipe.kind !== 'request' || recipe.method.toUpperCase() !== 'POST') return [];
  return (await loadOperationPlan(profile, plan.client, [], { withSchemas: false }))?.called ?? [];
}

export async function sendReplay(plan: SendPlan & { replay: string }, expired: AbortSignal): Promise<number> {
  const file = await readRecipe(plan.replay);
  const recipe = await inlineBodyFile(file.recipe, dirname(resolve(plan.replay)));
  const profile = await loadProfile(plan.profilePath);
  await prepareOut(plan.outDir);
  // The recipe's method and URL are data from a file: the replay client has the same one way out as a run's
  // (client/outbound.ts). A POST it may make to an operation is one the profile's plan classifies as a read.
  const client = createTargetClient(profile, { ...plan.client, readOperations: await replayReads(recipe, profile, plan) });
  // --max-duration: closing the client cuts whatever it is waiting for.
  expired.addEventListener('abort', () => void client.close(), { once: true });
  // A JWT listener fetches its JWKS from the address the profile names: served for this one request.
  const jwks = usesJwtListener(recipe) ? await startProfileJwksServers(profile) : undefined;
  const recorded = file.recorded.status !== undefined ? `HTTP ${file.recorded.status}` : `error ${file.recorded.error ?? 'unknown'}`;
  try {
    process.stdout.write(`# reproduction of ${oneLine(String(file.check)).slice(0, 80)} [${oneLine(String(file.level)).slice(0, 10)}]: the run got ${recorded}\n`);
    let got: string;
    try {
      const response = await replay(client, recipe);
      const exchange = response.exchange;
      process.stdout.write(`${exchange.request.method} ${oneLine(exchange.request.url)}\nHTTP ${response.status}\n  exchange (redacted): ${exchangePath(plan.outDir)}\n`);
      const text = showResponseBody(client.recorder.redact(response.body.toString('utf8')));
      if (text !== '') process.stdout.write(`${text}\n`);
      got = `HTTP ${response.status}`;
    } catch (error) {
      if (!(error instanceof HarnessError) || file.recorded.error === undefined) throw error;
      got = `error ${error.code}`;
      process.stdout.write(`${got}: ${oneLine(client.recorder.redact(error.message))}\n`);
    }
    const same = got === recorded;
    process.stdout.write(same ? `reproduced: ${got}, as in the run\n` : `not reproduced: ${got} now, ${recorded} in the run\n`);
    return same ? 0 : 1;
  } finally {
    await jwks?.close();
    await writeExchange(plan, client.recorder, undefined);
    await client.close();
  }
}
