/**
 * The benches' native minimal server (bench/minimal-native.c, built and started by minimal-native.ts):
 * framed like the node:net one (tests/bench/minimal-http.test.ts), on 127.0.0.1 port 0: each request
 * answered once whatever the reads, pipelined ones answered in order, a connection it cannot frame closed,
 * and it exits when its parent's end of its standard input closes.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildNativeMinimal, startNativeMinimal, type NativeBuild, type NativeServer } from '../../bench/minimal-native.js';
import { describeWith } from '../support/capabilities.js';

const build = buildNativeMinimal();

function post(body: string, headerCase = 'content-length'): Buffer {
  return Buffer.from(`POST /api/v1/webhooks/incoming/wh_x HTTP/1.1\r\nhost: 127.0.0.1\r\n${headerCase}: ${Buffer.byteLength(body)}\r\n\r\n${body}`, 'latin1');
}

/** A connection and what it has received so far, and a wait (5 s at most) for n answers or its close. */
function client(port: number): { socket: Socket; received: () => string; answers: (n: number) => Promise<void>; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const answers = (n: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${n} answers; got ${JSON.stringify(received)}`)), 5000);
      const check = (): void => {
        if ((received.match(/HTTP\/1\.1 200 OK\r\n/g) ?? []).length < n) return;
        clearTimeout(timer);
        socket.off('data', check);
        resolve();
      };
      socket.on('data', check);
      check();
    });
  return { socket, received: () => received, answers, closed };
}

const withTimeout = <T>(promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within 5 s`)), 5000))]);

describeWith('cc', typeof build !== 'string', typeof build === 'string' ? build : '', 'the native minimal server', () => {
  let server: NativeServer;
  beforeAll(async () => (server = await startNativeMinimal((build as NativeBuild).binary)));
  afterAll(async () => {
    await server?.stop();
    (build as NativeBuild).remove();
  });

  it('answers each request once with the canned 200, split at any byte and pipelined alike, on one connection', async () => {
    const three = Buffer.concat([post('{"a":1}'), Buffer.from('GET / HTTP/1.1\r\nhost: x\r\n\r\n', 'latin1'), post('x'.repeat(1024), 'Content-Length')]);
    const c = client(server.port);
    c.socket.write(three);
    await c.answers(3);
    // Byte by byte: nothing is answered before a request's last byte.
    const one = post('{"event":"x"}');
    for (let i = 0; i < one.length - 1; i += 1) {
      c.socket.write(one.subarray(i, i + 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((c.received().match(/HTTP\/1\.1 200 OK/g) ?? []).length).toBe(3);
    c.socket.write(one.subarray(one.length - 1));
    await c.answers(4);
    const answer = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}';
    expect(c.received()).toBe(answer.repeat(4));
    c.socket.destroy();
  });

  it('many pipelined requests in one write: every answer, whole, in order (more than one write of answers)', async () => {
    const c = client(server.port);
    const n = 600;
    c.socket.write(Buffer.concat(Array.from({ length: n }, () => post('{}'))));
    await c.answers(n);
    expect(c.received()).toBe('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}'.repeat(n));
    c.socket.destroy();
  });

  it('a client that stops reading: the answers wait in the server (short writes resumed mid-answer), none lost, none torn', async () => {
    const c = client(server.port);
    c.socket.pause();
    // 9.6 MB of answers: more than the two socket buffers take while the client reads nothing (checked with strace: EAGAIN).
    const n = 100_000;
    c.socket.write(Buffer.concat(Array.from({ length: n }, () => post('{}'))));
    // Long enough for the server to fill the socket and wait to write (its reading paused meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 300));
    c.socket.resume();
    await c.answers(n);
    expect(c.received()).toBe('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}'.repeat(n));
    c.socket.destroy();
  });

  it('closes what it cannot frame: a chunked body, a bad Content-Length, an endless head; and still serves others', async () => {
    for (const bad of [
      Buffer.from('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'latin1'),
      Buffer.from('POST / HTTP/1.1\r\ncontent-length: -3\r\n\r\n', 'latin1'),
      Buffer.from('POST / HTTP/1.1\r\ncontent-length: x\r\n\r\n', 'latin1'),
      Buffer.alloc(40 * 1024, 0x61),
    ]) {
      const c = client(server.port);
      c.socket.on('error', () => {});
      c.socket.write(bad);
      await withTimeout(c.closed, `closing after ${JSON.stringify(bad.subarray(0, 40).toString('latin1'))}`);
      expect(c.received()).toBe('');
    }
    const good = client(server.port);
    good.socket.write(post('{}'));
    await good.answers(1);
    good.socket.destroy();
  });

  it('with a delay: each answer that late (not before it, within a few hundred ms after), and a connection closed meanwhile costs the others nothing', async () => {
    const delayed = await startNativeMinimal((build as NativeBuild).binary, { delayMs: 40 });
    try {
      const gone = client(delayed.port);
      gone.socket.write(Buffer.concat([post('{}'), post('{}')]));
      await new Promise((resolve) => setTimeout(resolve, 5));
      gone.socket.destroy();
      const c = client(delayed.port);
      for (let round = 0; round < 3; round += 1) {
        const sent = performance.now();
        c.socket.write(Buffer.concat([post('{"a":1}'), post('{"b":2}')]));
        await c.answers(2 * (round + 1));
        const took = performance.now() - sent;
        expect(took).toBeGreaterThanOrEqual(39);
        // A loaded CI machine may wake the server late: the bound says "about the delay", not "to the ms".
        expect(took).toBeLessThan(440);
      }
      c.socket.destroy();
    } finally {
      await delayed.stop();
    }
  });

  it('exits when its standard input closes', async () => {
    const other = await startNativeMinimal((build as NativeBuild).binary);
    await withTimeout(other.stop(), 'stop');
    expect(() => process.kill(other.pid, 0)).toThrow();
  });
});
