/**
 * Issue 31: `load` keeps the first few error bodies and statuses per kind, capped and redacted. The pieces
 * (the sample store, the response parser keeping a body only when asked) and then a whole run against a
 * server that answers 400 with a body quoting the profile's secret and the request's signature.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../src/client/index.js';
import { ERROR_SAMPLE_BODY_BYTES, ERROR_SAMPLES_PER_KIND, ErrorSamples } from '../../src/load/error-samples.js';
import { ResponseParser } from '../../src/load/load-response-parser.js';
import { runLoad } from '../../src/load/run.js';
import { summaryText } from '../../src/load/report-text.js';
import { renderHtmlReport } from '../../src/load/report-html.js';
import { fixtureProfile } from './support/fixtures.js';

const SECRET = 'fixture-hmac-secret';

describe('ErrorSamples', () => {
  it('keeps at most perKind samples of each kind, cuts bodies and marks the cut', () => {
    const samples = new ErrorSamples((text) => text);
    for (let i = 0; i < 10; i += 1) samples.add('HTTP 400', 400, Buffer.from(`body ${i}`));
    expect(samples.wants('HTTP 400')).toBe(false);
    samples.add('TIMEOUT', 0);
    const long = Buffer.alloc(ERROR_SAMPLE_BODY_BYTES * 4, 'x');
    samples.add('HTTP 500', 500, long);
    const list = samples.list();
    expect(list.filter((s) => s.kind === 'HTTP 400').map((s) => s.body)).toEqual(['body 0', 'body 1', 'body 2']);
    expect(list.find((s) => s.kind === 'TIMEOUT')).toEqual({ kind: 'TIMEOUT', status: 0 });
    const cut = list.find((s) => s.kind === 'HTTP 500');
    expect(cut?.body).toHaveLength(ERROR_SAMPLE_BODY_BYTES);
    expect(cut?.truncated).toBe(true);
    expect(ERROR_SAMPLES_PER_KIND).toBe(3);
  });

  it('redacts each body before keeping it', () => {
    const samples = new ErrorSamples((text) => redact(text, [SECRET]));
    samples.add('HTTP 401', 401, Buffer.from(`{"detail":"wrong secret ${SECRET}"}`));
    const [sample] = samples.list();
    expect(sample.body).not.toContain(SECRET);
    expect(sample.body).toContain(REDACTED);
  });

  it('redacts a secret that straddles the cut before cutting, so no prefix of it is kept', () => {
    const samples = new ErrorSamples((text) => redact(text, [SECRET]));
    const body = `${'x'.repeat(ERROR_SAMPLE_BODY_BYTES - 8)}${SECRET}${'y'.repeat(100)}`;
    samples.add('HTTP 400', 400, Buffer.from(body));
    const [sample] = samples.list();
    expect(sample.body).not.toContain(SECRET.slice(0, 8));
    expect(sample.truncated).toBe(true);
  });
});

describe('ResponseParser keeps a body only when asked', () => {
  const answer = (status: number, body: string, chunked: boolean): Buffer[] => {
    const head = chunked
      ? `HTTP/1.1 ${status} X\r\ntransfer-encoding: chunked\r\n\r\n`
      : `HTTP/1.1 ${status} X\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const payload = chunked ? `${(body.length / 2).toString(16)}\r\n${body.slice(0, body.length / 2)}\r\n${(body.length / 2).toString(16)}\r\n${body.slice(body.length / 2)}\r\n0\r\n\r\n` : body;
    const wire = Buffer.from(head + payload, 'latin1');
    // Split in three reads, as a socket may deliver it.
    const a = Math.floor(wire.length / 3);
    return [wire.subarray(0, a), wire.subarray(a, 2 * a), wire.subarray(2 * a)];
  };
  const parse = (parser: ResponseParser, parts: Buffer[]) => {
    let done;
    for (const part of parts) done = parser.feed(part) ?? done;
    return done;
  };

  for (const chunked of [false, true]) {
    it(`${chunked ? 'chunked' : 'Content-Length'}: the first keepBytes of an asked-for status, nothing otherwise`, () => {
      const asked: number[] = [];
      const parser = new ResponseParser((status) => {
        asked.push(status);
        return status >= 400;
      }, 16);
      const body = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2);
      const error = parse(parser, answer(400, body, chunked));
      expect(error?.body?.toString('latin1')).toBe(body.slice(0, 16));
      expect(error?.bodyBytes).toBe(body.length);
      const ok = parse(parser, answer(200, body, chunked));
      expect(ok?.status).toBe(200);
      expect(ok?.body).toBeUndefined();
      expect(asked).toEqual([400, 200]);
    });
  }
});

describe('a load run against a target that refuses every request', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('reports the first answers of each kind, redacted, in the JSON report, the summary and the HTML page', async () => {
    let n = 0;
    const server = createServer((req, res) => {
      n += 1;
      req.resume();
      req.on('end', () => {
        // Hostile and indiscreet: the profile's secret and a terminal escape in the body.
        const body = `${JSON.stringify({ n, detail: `timestamp outside the window; secret ${SECRET}`, esc: '\u001b[2J' })}\u001b[2J`;
        res.writeHead(n % 2 === 0 ? 400 : 422, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const address = server.address() as { port: number };
    const { report } = await runLoad({ profile: fixtureProfile(`http://127.0.0.1:${address.port}`), rate: 40, durationMs: 1000, outDir: null });

    expect(report.counts.errors).toBe(report.counts.completed);
    expect(report.counts.completed).toBeGreaterThan(2 * ERROR_SAMPLES_PER_KIND);
    const kinds = report.errorSamples.map((s) => s.kind);
    expect(kinds.filter((k) => k === 'HTTP 400')).toHaveLength(ERROR_SAMPLES_PER_KIND);
    expect(kinds.filter((k) => k === 'HTTP 422')).toHaveLength(ERROR_SAMPLES_PER_KIND);
    const json = JSON.stringify(report);
    expect(json).not.toContain(SECRET);
    for (const sample of report.errorSamples) {
      expect(sample.body).toContain('timestamp outside the window');
      expect(sample.body).toContain(REDACTED);
    }
    const text = summaryText(report);
    expect(text).toContain('error samples (the first 3 of each kind');
    expect(text).toMatch(/^ {4}HTTP 422: "\{/m);
    // The escape is printed escaped, never raw.
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain(SECRET);
    // The HTML page: a section of the samples, escaped, the escape shown as \x1b, no secret.
    const html = renderHtmlReport(report);
    expect(html).toContain('<h2>Error samples</h2>');
    expect(html.match(/<tr><th>HTTP 4(00|22)<\/th><td><pre>/g)).toHaveLength(2 * ERROR_SAMPLES_PER_KIND);
    expect(html).toContain('timestamp outside the window');
    expect(html).toContain('\\x1b[2J');
    expect(html).not.toContain('\u001b');
    expect(html).not.toContain(SECRET);
    expect(html).toContain('{&quot;n&quot;:');
  });
});
