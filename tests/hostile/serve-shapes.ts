/**
 * Malformed request shapes for the hostile battery and the pipelining test: broken framing, request
 * smuggling framings (RFC 9112 §6.1–6.3, §11.2), header and request-line syntax. Each names the answer it
 * must get: an exact status where an RFC says so, else any 4xx. None may get a 5xx except the 501 RFC 9112
 * §6.1 asks for an unknown transfer coding.
 */
export interface Shape {
  name: string;
  bytes: string;
  /** The exact status required, or '4xx' for any client error. */
  expect: number | '4xx';
}

const WEBHOOK = '/api/v1/webhooks/incoming/wh_NOSUCHLISTENER';
const head = (lines: string[]): string => `${lines.join('\r\n')}\r\n\r\n`;
const post = (...headers: string[]): string => head([`POST ${WEBHOOK} HTTP/1.1`, 'Host: 127.0.0.1', ...headers]);

export const SHAPES: Shape[] = [
  { name: 'garbage line', bytes: 'GARBAGE\r\n\r\n', expect: 400 },
  { name: 'NUL in a header value', bytes: head(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'X-A: a\0b']), expect: 400 },
  { name: 'bare CR in a header value', bytes: head(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'X-A: a\rb']), expect: 400 },
  { name: 'header without a colon', bytes: head(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'NoColonHere']), expect: 400 },
  { name: 'space before the colon', bytes: head(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'Transfer-Encoding : chunked']), expect: 400 },
  { name: 'obsolete line folding', bytes: head(['GET / HTTP/1.1', 'Host: 127.0.0.1', 'X-A: a', ' folded']), expect: 400 },
  { name: 'invalid method token', bytes: head(['G@T / HTTP/1.1', 'Host: 127.0.0.1']), expect: 400 },
  { name: 'unknown HTTP version', bytes: head(['GET / HTTP/3.7', 'Host: 127.0.0.1']), expect: '4xx' },
  // Node's parser takes this for HTTP/0.9 and the route answers it (404); it gets its own answer and the
  // connection closes, which is all the test asks of it.
  { name: 'no HTTP version', bytes: 'GET /\r\n\r\n', expect: '4xx' },
  { name: 'missing Host (RFC 9112 §3.2)', bytes: head(['GET / HTTP/1.1']), expect: 400 },
  { name: 'two Host headers (RFC 9112 §3.2)', bytes: head(['GET / HTTP/1.1', 'Host: a', 'Host: b']), expect: 400 },
  { name: 'CONNECT', bytes: head(['CONNECT 127.0.0.1:443 HTTP/1.1', 'Host: 127.0.0.1:443']), expect: 400 },
  { name: 'Content-Length and Transfer-Encoding', bytes: `${post('Content-Length: 5', 'Transfer-Encoding: chunked')}0\r\n\r\n`, expect: 400 },
  { name: 'Transfer-Encoding and Content-Length', bytes: `${post('Transfer-Encoding: chunked', 'Content-Length: 5')}0\r\n\r\n`, expect: 400 },
  { name: 'duplicate Content-Length, same value', bytes: `${post('Content-Length: 2', 'Content-Length: 2')}{}`, expect: 400 },
  { name: 'duplicate Content-Length, different values', bytes: `${post('Content-Length: 2', 'Content-Length: 3')}{}x`, expect: 400 },
  { name: 'Content-Length list', bytes: `${post('Content-Length: 2, 2')}{}`, expect: 400 },
  { name: 'negative Content-Length', bytes: `${post('Content-Length: -1')}`, expect: 400 },
  { name: 'signed Content-Length', bytes: `${post('Content-Length: +2')}{}`, expect: 400 },
  { name: 'hex Content-Length', bytes: `${post('Content-Length: 0x2')}{}`, expect: 400 },
  { name: 'Content-Length overflow', bytes: `${post('Content-Length: 99999999999999999999999')}{}`, expect: '4xx' },
  { name: 'Transfer-Encoding: identity, chunked', bytes: `${post('Transfer-Encoding: identity, chunked')}2\r\n{}\r\n0\r\n\r\n`, expect: 501 },
  { name: 'Transfer-Encoding: gzip, chunked', bytes: `${post('Transfer-Encoding: gzip, chunked')}2\r\n{}\r\n0\r\n\r\n`, expect: 501 },
  { name: 'Transfer-Encoding in two lines', bytes: `${post('Transfer-Encoding: gzip', 'Transfer-Encoding: chunked')}2\r\n{}\r\n0\r\n\r\n`, expect: 501 },
  { name: 'Transfer-Encoding: chunked, chunked', bytes: `${post('Transfer-Encoding: chunked, chunked')}2\r\n{}\r\n0\r\n\r\n`, expect: 400 },
  { name: 'Transfer-Encoding: chunked, identity', bytes: `${post('Transfer-Encoding: chunked, identity')}2\r\n{}\r\n0\r\n\r\n`, expect: 400 },
  { name: 'Transfer-Encoding: gzip (not chunked last)', bytes: `${post('Transfer-Encoding: gzip')}{}`, expect: 400 },
  { name: 'Transfer-Encoding: xchunked', bytes: `${post('Transfer-Encoding: xchunked')}2\r\n{}\r\n0\r\n\r\n`, expect: 400 },
  { name: 'Transfer-Encoding with a tab and a comma', bytes: `${post('Transfer-Encoding:\tchunked,')}2\r\n{}\r\n0\r\n\r\n`, expect: '4xx' },
  { name: 'chunk size not hex', bytes: `${post('Transfer-Encoding: chunked')}zz\r\n{}\r\n0\r\n\r\n`, expect: 400 },
  { name: 'chunk size overflow', bytes: `${post('Transfer-Encoding: chunked')}fffffffffffffffffff\r\n{}\r\n0\r\n\r\n`, expect: 400 },
  { name: 'chunk data longer than its size', bytes: `${post('Transfer-Encoding: chunked')}1\r\n{}\r\n0\r\n\r\n`, expect: 400 },
  { name: 'chunk size with a bare LF', bytes: `${post('Transfer-Encoding: chunked')}2\n{}\r\n0\r\n\r\n`, expect: '4xx' },
  { name: 'NUL in the request target', bytes: head(['GET /a\0b HTTP/1.1', 'Host: 127.0.0.1']), expect: 400 },
  { name: 'space in the request target', bytes: head(['GET /a b HTTP/1.1', 'Host: 127.0.0.1']), expect: 400 },
];
