/**
 * The benches' minimal server (bench/minimal-http.ts): requests framed whatever the reads (split anywhere,
 * several in one), each answered once, and a real client on 127.0.0.1 port 0 gets its answers, keep-alive.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestFramer, startMinimalServer } from '../../bench/minimal-http.js';
import type { Server } from 'node:net';

function post(body: string, headerCase = 'content-length'): Buffer {
  return Buffer.from(`POST /api/v1/webhooks/incoming/wh_x HTTP/1.1\r\nhost: 127.0.0.1\r\n${headerCase}: ${Buffer.byteLength(body)}\r\n\r\n${body}`, 'latin1');
}

describe('RequestFramer', () => {
  const three = Buffer.concat([post('{"a":1}'), Buffer.from('GET / HTTP/1.1\r\nhost: x\r\n\r\n', 'latin1'), post('x'.repeat(1024), 'Content-Length')]);

  it('finds pipelined requests in one read, bodies by their Content-Length (any case), a GET without one', () => {
    expect(new RequestFramer().push(three)).toBe(3);
  });

  it('a request split at every byte boundary is counted once, when its last byte arrives', () => {
    for (let cut = 1; cut < three.length; cut += 7) {
      const framer = new RequestFramer();
      const first = framer.push(three.subarray(0, cut));
      const second = framer.push(three.subarray(cut));
      expect(first + second, `cut at ${cut}`).toBe(3);
    }
    const framer = new RequestFramer();
    let total = 0;
    for (let i = 0; i < three.length; i += 1) total += framer.push(three.subarray(i, i + 1));
    expect(total).toBe(3);
  });

  it('refuses what it cannot frame: a chunked body, a bad Content-Length, an endless head', () => {
    expect(new RequestFramer().push(Buffer.from('POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n'))).toBe(-1);
    expect(new RequestFramer().push(Buffer.from('POST / HTTP/1.1\r\ncontent-length: -3\r\n\r\n'))).toBe(-1);
    expect(new RequestFramer().push(Buffer.alloc(70 * 1024, 0x61))).toBe(-1);
  });
});

describe('startMinimalServer', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => ({ server, port } = await startMinimalServer()));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers each request once with 200, on one kept-alive connection, split and pipelined alike', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const answered = (n: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out with ${received}`)), 5000);
        const check = (): void => {
          if ((received.match(/HTTP\/1\.1 200 OK/g) ?? []).length >= n) {
            clearTimeout(timer);
            socket.off('data', check);
            resolve();
          }
        };
        socket.on('data', check);
        check();
      });
    const one = post('{"event":"x"}');
    socket.write(one.subarray(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write(one.subarray(20));
    await answered(1);
    socket.write(Buffer.concat([post('a'), post('b'), post('c')]));
    await answered(4);
    expect((received.match(/HTTP\/1\.1 200 OK\r\n/g) ?? []).length).toBe(4);
    expect(received.endsWith('\r\n\r\n{}')).toBe(true);
    socket.destroy();
  });
});
