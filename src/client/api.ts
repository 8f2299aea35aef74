/**
 * Resource calls (service.md §4.2, §4.4): owner IDs, one entitlements page, and the page walk.
 * Target faults (a non-200, a missing or non-string nextPageToken) end the walk and stay visible in its
 * pages for the suites to judge; only a loop or a runaway walk is thrown, since the walk cannot finish.
 */
import { HarnessError } from '../errors.js';
import type { AllowedRequest, RequestFirewall } from './firewall.js';
import type { InternalRecorder } from './recorder.js';
import type { RecipeContext } from './replay-context.js';
import { requestRecipe } from './replay-recipe.js';
import type { TokenManager } from './tokens.js';
import type { Transport } from './transport.js';
import type { ApiCallOptions, ApiRequest, HttpResponse, OperationRequest, PageItem, PageOptions, PageRecord, WalkOptions, WalkResult } from './types.js';

export const DEFAULT_MAX_PAGES = 1000;

/** A walk that could not finish; `partial` holds what was fetched, for the report. */
export class PageWalkError extends HarnessError {
  constructor(
    code: 'PAGE_LOOP' | 'PAGE_LIMIT',
    message: string,
    readonly partial: WalkResult,
    hint: string,
  ) {
    super(code, message, { hint });
  }
}

export class ApiCalls {
  constructor(
    private readonly firewall: RequestFirewall,
    private readonly transport: Transport,
    private readonly tokens: TokenManager,
    private readonly recorder: InternalRecorder,
    private readonly defaultMethod: 'secret' | 'assertion',
    private readonly recipes?: RecipeContext,
  ) {}

  /**
   * Sends a GET with the Authorization the options ask for. With the default token, a 401 drops that
   * token and the call is made once more with a fresh one (the token may have expired in between).
   */
  get(path: string, options: ApiCallOptions, label: string): Promise<HttpResponse> {
    return this.call({ method: 'GET', path }, options, label);
  }

  /**
   * Any API call given as a filled path (the toolkit's `apiCall`): through the firewall, then sent with
   * Authorization as in {@link get}.
   */
  async call(request: ApiRequest, options: ApiCallOptions, label: string): Promise<HttpResponse> {
    return this.send(request.method, this.firewall.rawPath(request.method, request.path, request.body), request.body, options, label);
  }

  /** One request of an operation of the plan: the template filled and checked by the firewall (ruling 35); a refusal rejects. */
  async operation(request: OperationRequest, options: ApiCallOptions, label: string): Promise<HttpResponse> {
    const allowed = this.firewall.operation(request.operation, request.query ?? [], request.body);
    return this.send(request.operation.method.toUpperCase(), allowed, request.body, options, label);
  }

  /**
   * Sends a request the firewall let through. The bearer token is attached here and nowhere else, to a URL
   * on the baseUrl's origin: with the default token, a 401 drops it and the call is made once more with a
   * fresh one (the token may have expired in between).
   */
  private async send(method: string, allowed: AllowedRequest, rawBody: unknown, options: ApiCallOptions, label: string): Promise<HttpResponse> {
    const { url } = allowed;
    const body = rawBody === undefined ? undefined : typeof rawBody === 'string' ? rawBody : JSON.stringify(rawBody);
    const send = (authorization: string | undefined): Promise<HttpResponse> => {
      const headers = {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(authorization === undefined ? {} : { authorization }),
      };
      return this.transport.send({
        ...(this.recipes ? { replay: requestRecipe({ method, url, headers, ...(body === undefined ? {} : { body }) }, this.recipes.encoding()) } : {}),
        method,
        url,
        headers,
        ...(body === undefined ? {} : { body }),
        label: options.label ?? label,
      });
    };
    if (options.authorization !== undefined) return send(options.authorization);
    if (options.token === null) return send(undefined);
    if (typeof options.token === 'string') {
      this.recorder.addSecret(options.token);
      return send(`Bearer ${options.token}`);
    }
    const first = await this.tokens.token('primary', this.defaultMethod);
    const response = await send(`Bearer ${first.accessToken}`);
    if (response.status !== 401) return response;
    this.tokens.invalidate('primary', this.defaultMethod, first.accessToken);
    const fresh = await this.tokens.token('primary', this.defaultMethod);
    return send(`Bearer ${fresh.accessToken}`);
  }

  ownerIds(appId: string, options: ApiCallOptions = {}): Promise<HttpResponse> {
    return this.get(`/api/v1/apps/${encodeURIComponent(appId)}/ownerids`, options, `owner IDs of app ${appId}`);
  }

  entitlementsPage(appId: string, options: PageOptions = {}): Promise<HttpResponse> {
    const query: string[] = [];
    // Exactly as given: undefined leaves the parameter out, '' sends it empty.
    if (options.pageSize !== undefined) query.push(`page_size=${encodeURIComponent(String(options.pageSize))}`);
    if (options.pageToken !== undefined) query.push(`page_token=${encodeURIComponent(options.pageToken)}`);
    const path = `/api/v1/apps/${encodeURIComponent(appId)}/entitlements${query.length ? `?${query.join('&')}` : ''}`;
    return this.get(path, options, `entitlements of app ${appId}`);
  }

  /** Yields pages one at a time; the caller gets each page's items as soon as it arrives. */
  async *pages(appId: string, options: WalkOptions = {}): AsyncGenerator<{ record: PageRecord; items: PageItem[] }, void, void> {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const seen = new Set<string>();
    const pages: PageRecord[] = [];
    const items: PageItem[] = [];
    let pageToken: string | undefined = options.emptyFirstToken ? '' : undefined;
    for (let page = 1; ; page += 1) {
      if (page > maxPages) {
        throw new PageWalkError(
          'PAGE_LIMIT',
          `walking the entitlements of app ${appId} did not end within ${maxPages} pages`,
          { items, pages },
          'The target keeps returning non-empty nextPageToken values; raise maxPages if the app really has that many pages.',
        );
      }
      const response = await this.entitlementsPage(appId, {
        token: options.token,
        authorization: options.authorization,
        label: options.label ? `${options.label} (page ${page})` : `entitlements of app ${appId}, page ${page}`,
        pageSize: options.pageSize,
        pageToken,
      });
      const body = response.json() as { list?: unknown; nextPageToken?: unknown } | undefined;
      const list = response.status === 200 && Array.isArray(body?.list) ? body.list : [];
      const pageItems = list.map((item: unknown) => ({ item, page }));
      const nextPageToken = body !== null && typeof body === 'object' ? body.nextPageToken : undefined;
      const record: PageRecord = { page, status: response.status, itemCount: list.length, nextPageToken, response };
      pages.push(record);
      items.push(...pageItems);
      yield { record, items: pageItems };
      // A target fault ends the walk; the suites see it in the page records.
      if (response.status !== 200 || !Array.isArray(body?.list) || typeof nextPageToken !== 'string' || nextPageToken === '') return;
      if (seen.has(nextPageToken) || nextPageToken === pageToken) {
        throw new PageWalkError(
          'PAGE_LOOP',
          `walking the entitlements of app ${appId}: page ${page} returned a nextPageToken already seen, so the walk would never end`,
          { items, pages },
          'The target hands out a page token it gave before; its pagination loops.',
        );
      }
      seen.add(nextPageToken);
      pageToken = nextPageToken;
    }
  }

  async walk(appId: string, options: WalkOptions = {}): Promise<WalkResult> {
    const result: WalkResult = { items: [], pages: [] };
    for await (const { record, items } of this.pages(appId, options)) {
      result.pages.push(record);
      result.items.push(...items);
    }
    return result;
  }

  async *items(appId: string, options: WalkOptions = {}): AsyncGenerator<PageItem, void, void> {
    for await (const { items } of this.pages(appId, options)) yield* items;
  }
}
