/**
 * The wrapper around the reference's handler that names the client's mistake: on a refusal only (status
 * >= 400) it asks {@link diagnose} and writes the sentence into the answer's `error_description`, adds
 * `mistake` (a stable code) and `error_uri` (the docs' entry), and keeps `error`, the status and every
 * header as the reference gave them (ruling 5 at the token endpoint). A valid request pays nothing: the
 * answer passes through untouched. The reference stays unaware: this wraps it from outside, through the
 * sandbox's customize hooks, as faults do.
 */
import { onAnswer } from '../reference/http.js';
import type { ReferenceHandler, ReferenceRequest, ReferenceResponse, TokenStore } from '../reference/types.js';
import type { SandboxCustomize } from '../tenant/types.js';
import { diagnose, docsEntry } from './diagnose.js';
import type { Diagnosis } from './exchange.js';
import { PROCESS_ISSUED_TOKENS, type IssuedTokens } from './issued-tokens.js';
import { UNEXPLAINED } from './mistakes/index.js';
import { RefusedRequest, sandboxFacts, type SandboxFacts } from './refused-request.js';
import { TimeBudget, type TimeBudgetOptions } from './time-budget.js';

export interface DiagnosingOptions extends TimeBudgetOptions {
  /** Where issued tokens are remembered; default the process's one registry. */
  issued?: IssuedTokens;
}

/** The reference's refusal body as it wrote it: `{ error, error_description }` (ruling 23's form). */
function refusalOf(response: ReferenceResponse): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(typeof response.body === 'string' ? response.body : response.body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function withDiagnosis(response: ReferenceResponse, body: Record<string, unknown>, diagnosis: Diagnosis): ReferenceResponse {
  const error_uri = docsEntry(diagnosis.mistake);
  return { ...response, body: JSON.stringify({ ...body, error_description: diagnosis.sentence, mistake: diagnosis.mistake, error_uri }) };
}

export function diagnosingHandler(inner: ReferenceHandler, sandbox: SandboxFacts, budget: TimeBudget = new TimeBudget()): ReferenceHandler {
  // A valid request costs a test of its status here (a then() when its answer comes later): it passes through untouched.
  return (request) => onAnswer(inner(request), (response) => diagnosed(request, response));
  function diagnosed(request: ReferenceRequest, response: ReferenceResponse): ReferenceResponse {
    if (response.status < 400) return response;
    const body = refusalOf(response);
    const description = body?.error_description;
    if (body === undefined || typeof description !== 'string') return response;
    if (!budget.allows()) {
      const sentence = `${description} (diagnosis skipped: the sandbox is refusing more requests than it may spend ${Math.round(budget.share * 100)}% of its time diagnosing)`;
      return withDiagnosis(response, body, { mistake: UNEXPLAINED, sentence });
    }
    const diagnosis = budget.spend(() => diagnose(new RefusedRequest(request, response.status, String(body.error ?? ''), description, sandbox)));
    return diagnosis === undefined ? response : withDiagnosis(response, body, diagnosis);
  }
}

/** The token store, remembering each token it issues (its hash) for the bearer diagnoses. */
function recordingTokenStore(inner: TokenStore, baseUrl: string, issued: IssuedTokens): TokenStore {
  return {
    put(tokenHash, record, now) {
      inner.put(tokenHash, record, now);
      issued.remember(tokenHash, { baseUrl, expiresAt: record.expiresAt });
    },
    get: (tokenHash, now) => inner.get(tokenHash, now),
    sweep: (now) => inner.sweep(now),
    size: () => inner.size(),
  };
}

/** The sandbox customisation that diagnoses refusals: the clock and token store read, the handler wrapped. */
export function diagnosingCustomize(options: DiagnosingOptions = {}): SandboxCustomize {
  const issued = options.issued ?? PROCESS_ISSUED_TOKENS;
  let now: () => number = () => Date.now() / 1000;
  return {
    deps: (deps, tenant) => {
      now = () => deps.clock.now();
      return { tokenStore: recordingTokenStore(deps.tokenStore, tenant.baseUrl, issued) };
    },
    wrapHandler: (handler, tenant) => diagnosingHandler(handler, sandboxFacts(tenant, () => now(), issued), new TimeBudget(options)),
  };
}
