/**
 * `run --har FILE`: every exchange of the run as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
 * the format browsers' devtools and proxies open. Entries are in time order; each entry's comment names
 * the check and what the request was for. The exchanges are the recorder's (already redacted, bodies cut
 * at its bound) and go through writeReportFile like every report, so the file holds no secret.
 */
import { resolve } from 'node:path';
import { resultKey } from '../engine/result-key.js';
import type { RecordedExchange } from '../client/types.js';
import type { EngineReporter, RunSummary } from '../engine/types.js';
import { writeReportFile, type ReporterContext } from './context.js';

interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    /** Custom field (HAR allows `_` names): the transport error when there was no answer. */
    _error?: { code: string; message: string };
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; comment?: string };
}

function pairs(headers: Record<string, string>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function header(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function queryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams.entries()].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function cutNote(kept: string | undefined, total: number, truncated: boolean): string | undefined {
  return truncated ? `cut at ${Buffer.byteLength(kept ?? '', 'utf8')} of ${total} bytes by the recorder` : undefined;
}

export function harEntry(exchange: RecordedExchange, checkId: string): HarEntry {
  const { request, response } = exchange;
  const requestNote = cutNote(request.body, request.bodyBytes, request.bodyTruncated);
  const responseNote = response ? cutNote(response.body, response.bodyBytes, response.bodyTruncated) : undefined;
  const duration = Math.max(0, Math.round(exchange.durationMs * 1000) / 1000);
  return {
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time: duration,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: queryString(request.url),
      ...(request.body === undefined
        ? {}
        : { postData: { mimeType: header(request.headers, 'content-type') ?? '', text: request.body, ...(requestNote ? { comment: requestNote } : {}) } }),
      headersSize: -1,
      bodySize: request.bodyBytes,
    },
    response: {
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: response ? pairs(response.headers) : [],
      content: {
        size: response?.bodyBytes ?? 0,
        mimeType: (response && header(response.headers, 'content-type')) ?? '',
        ...(response?.body === undefined ? {} : { text: response.body }),
        ...(responseNote ? { comment: responseNote } : {}),
      },
      redirectURL: (response && header(response.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: response ? response.bodyBytes : -1,
      ...(exchange.error ? { _error: { code: exchange.error.code, message: exchange.error.message } } : {}),
    },
    cache: {},
    timings: { send: 0, wait: duration, receive: 0 },
    comment: exchange.label ? `${checkId}: ${exchange.label}` : checkId,
  };
}

export function toHar(summary: RunSummary): Har {
  const entries = summary.results
    .flatMap((result) => result.exchanges.map((exchange) => ({ exchange, id: resultKey(result) })))
    .sort((a, b) => a.exchange.startedAt - b.exchange.startedAt)
    .map(({ exchange, id }) => harEntry(exchange, id));
  return {
    log: {
      version: '1.2',
      creator: { name: summary.header.tool.name, version: summary.header.tool.version },
      entries,
      comment: `${summary.header.profileName}: ${summary.header.target}, seed ${summary.header.seed}`,
    },
  };
}

export class HarReporter implements EngineReporter {
  /** Shows every check's exchanges, those that passed too. */
  readonly readsPassedExchanges = true;
  constructor(private readonly ctx: ReporterContext) {}

  async onRunEnd(summary: RunSummary): Promise<void> {
    if (this.ctx.harPath === undefined) return;
    await writeReportFile(this.ctx, resolve(this.ctx.harPath), toHar(summary), (har) => `${JSON.stringify(har, null, 2)}\n`);
  }
}
