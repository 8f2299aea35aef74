/**
 * A failure's reproduction (issue 23): the decisive request's recipe (client/replay-recipe.ts) written to
 * <out>/reproductions/<ID>.json, and the one command that sends it again, signed anew:
 * `access-conformance send --profile P --replay <out>/reproductions/<ID>.json`. A body over the display cap
 * goes beside it as <ID>.body. Written once per run, whichever reporter asks first; every reporter shows
 * the same line. Where a request cannot travel (it carries something made during the run), the report
 * says why and the rerun line stands in.
 */
import { rm } from 'node:fs/promises';
import { describeOutputFailure, writeOutputFile } from '../output-file.js';
import { resultKey } from '../engine/result-key.js';
import { join, relative, resolve } from 'node:path';
import type { RecordedExchange, ReplayRecipe } from '../client/types.js';
import { recipeBodyHolder } from '../client/replay-recipe.js';
import type { CheckResult, RunSummary } from '../engine/types.js';
import type { ReporterContext } from './context.js';
import { launcherOf, word, type RunInvocation } from './rerun.js';
import { curlCommand } from './curl.js';
import { REPRODUCTIONS_DIR } from './file-names.js';

export const REPRODUCTION_FORMAT = 'access-conformance.reproduction';
/** Bodies longer than this go to their own file (the recorder shows the first 4096 bytes). */
const INLINE_BODY_BYTES = 4096;

/** A check's reproduction: the command and file, or why the request cannot be sent alone. */
export type Reproduction =
  | { command: string; file: string; status?: number; error?: string }
  | { unavailable: string };

/** The document in <ID>.json (docs/reproductions.md). */
export interface ReproductionFile {
  format: typeof REPRODUCTION_FORMAT;
  version: 1;
  check: string;
  /** The operation of a per-operation check (ruling 34). */
  operation?: { method: string; path: string; operationId?: string };
  level: string;
  /** What the run got: the status the replay is compared with (or the transport error's code). */
  recorded: { status?: number; error?: string; method: string; url: string };
  recipe: ReplayRecipe;
}

/**
 * The exchange a failure is reproduced by: the last request the check sent to the service (it showed the
 * failure). A test-hook call after it (the automation's runs, the clock) only reads what that request did.
 */
export function decisiveExchange(exchanges: readonly RecordedExchange[]): RecordedExchange | undefined {
  return exchanges.findLast((exchange) => exchange.replay !== undefined) ?? exchanges.at(-1);
}

/** The profile a reproduction is sent with: the run's own, or the one `serve` writes for the embedded one. */
function profileWord(invocation: RunInvocation | undefined): string {
  if (invocation?.kind === 'profile') return word(invocation.path);
  return 'reports/sandbox.target.json';
}

/** A body of the recipe longer than the display cap, moved to a file: `{ "$file": name }`. */
function moveLargeBody(recipe: ReplayRecipe, name: string): { recipe: ReplayRecipe; body?: Buffer } {
  const body = recipeBodyHolder(recipe)?.body;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body !== null && typeof body === 'object' && typeof (body as { $bytes?: unknown }).$bytes === 'string' ? Buffer.from((body as { $bytes: string }).$bytes, 'base64') : undefined;
  if (bytes === undefined || bytes.length <= INLINE_BODY_BYTES) return { recipe };
  const moved = structuredClone(recipe);
  recipeBodyHolder(moved)!.body = { $file: name };
  return { recipe: moved, body: bytes };
}

async function writeOne(ctx: ReporterContext, result: CheckResult, exchange: RecordedExchange, recipe: ReplayRecipe, invocation: RunInvocation | undefined): Promise<Reproduction> {
  const dir = resolve(ctx.outDir, REPRODUCTIONS_DIR);
  const name = resultKey(result).replace(/[^A-Za-z0-9_.-]/g, '_');
  const { recipe: written, body } = moveLargeBody(recipe, `${name}.body`);
  const doc: ReproductionFile = {
    format: REPRODUCTION_FORMAT,
    version: 1,
    check: result.id,
    ...(result.operation ? { operation: result.operation } : {}),
    level: result.level,
    recorded: {
      ...(exchange.response ? { status: exchange.response.status } : {}),
      ...(exchange.error ? { error: exchange.error.code } : {}),
      method: exchange.request.method,
      url: exchange.request.url,
    },
    recipe: written,
  };
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  // The recipe names credentials instead of holding them; should a rule still find one, nothing is written.
  if (ctx.scrub(ctx.redact(text)) !== text || (body !== undefined && ctx.scrub(body.toString('latin1')) !== body.toString('latin1'))) {
    return { unavailable: 'it would carry a credential' };
  }
  const file = join(dir, `${name}.json`);
  await writeOutputFile(file, text, '--out');
  if (body !== undefined) await writeOutputFile(join(dir, `${name}.body`), body, '--out');
  const shown = relative(process.cwd(), file) || file;
  const command = [launcherOf(invocation), 'send', '--profile', profileWord(invocation), '--replay', word(shown.startsWith('..') ? file : shown)].join(' ');
  return {
    command,
    file,
    ...(exchange.response ? { status: exchange.response.status } : {}),
    ...(exchange.error ? { error: exchange.error.code } : {}),
  };
}

const written = new WeakMap<RunSummary, Promise<Map<string, Reproduction>>>();

/** Each failed or errored check's reproduction, written on the first call for a run and shared after. */
export function reproductionsFor(summary: RunSummary, ctx: ReporterContext): Promise<Map<string, Reproduction>> {
  let pending = written.get(summary);
  if (pending === undefined) {
    pending = (async () => {
      const out = new Map<string, Reproduction>();
      // A folder that cannot be there (--out under a file) is no reason to stop: each file then says why.
      await rm(resolve(ctx.outDir, REPRODUCTIONS_DIR), { recursive: true, force: true }).catch(() => undefined);
      for (const result of summary.results) {
        if (result.state !== 'failed' && result.state !== 'errored') continue;
        const exchange = decisiveExchange(result.exchanges);
        if (exchange === undefined) continue;
        const note = exchange.replay;
        // Not sent by the client (a hand-built record): only the recorded request is shown.
        if (note === undefined) continue;
        if ('unavailable' in note) out.set(resultKey(result), { unavailable: note.unavailable });
        else {
          // A reproduction that cannot be written (a full disk, --out under a file) leaves the reports to be written.
          const made = await writeOne(ctx, result, exchange, note.recipe, ctx.invocation).catch((error: unknown) => ({ unavailable: `it could not be written: ${describeOutputFailure(error)}` }));
          out.set(resultKey(result), made);
        }
      }
      return out;
    })();
    written.set(summary, pending);
  }
  return pending;
}

/** The console's line about the folder (the files are not listed one by one: a run may fail hundreds). */
export function reproductionsLine(reproductions: ReadonlyMap<string, Reproduction>, outDir: string, invocation?: RunInvocation): string | undefined {
  const count = [...reproductions.values()].filter((r) => 'command' in r).length;
  if (count === 0) return undefined;
  // The embedded reference is gone with the run: its faults are served again by `serve`.
  const against = invocation?.kind === 'embedded'
    ? `; against \`${launcherOf(invocation)} serve${invocation.faults.map((fault) => ` --fault ${word(fault)}`).join('')}\`, which writes reports/sandbox.target.json`
    : '';
  return `reproductions: ${resolve(outDir, REPRODUCTIONS_DIR)} (${count}, one a failed check: \`${launcherOf(invocation)} send --profile P --replay FILE\` sends one again${against})`;
}

/**
 * The reproduction as labelled report lines: the command that replays it; where there is none, why, and
 * the recorded request as curl (its credentials as shell variables) for reading.
 */
export function reproductionLines(result: CheckResult, reproduction: Reproduction | undefined): Array<[label: string, text: string]> {
  const exchange = decisiveExchange(result.exchanges);
  if (reproduction !== undefined && 'command' in reproduction) return [['reproduce', reproduction.command]];
  const lines: Array<[string, string]> = [];
  if (reproduction !== undefined) lines.push(['reproduce', `no standalone command: ${reproduction.unavailable}; the rerun line reproduces it`]);
  if (exchange !== undefined) lines.push(['recorded request', curlCommand(exchange)]);
  return lines;
}
