// The container log capture and the wait for the profile file: no Docker needed (a container's removal on every way out is the stop room's finalizers, tests/stop/finalizers.test.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContainerLog } from '../../src/containers/container-log.js';
import { waitForProfile } from '../../src/containers/profile-wait.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-containers-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ContainerLog', () => {
  it('writes whole lines to the file and keeps the last ones', async () => {
    const log = new ContainerLog(join(dir, 'logs', 'container.log'), 3);
    const stream = new PassThrough();
    log.attach(stream);
    stream.write('one\ntw');
    stream.write('o\nthree\r\nfour\nfive');
    stream.end();
    await log.ended(1000);
    log.close();
    expect(log.lastLines()).toEqual(['three', 'four', 'five']);
    expect(await readFile(log.filePath, 'utf8')).toBe('one\ntwo\nthree\nfour\nfive\n');
    expect(log.formatTail()).toContain('  | five');
  });

  it('says so when the container printed nothing', () => {
    const log = new ContainerLog(join(dir, 'empty.log'));
    expect(log.formatTail()).toBe('(the container printed nothing)');
    log.close();
  });

  it('redacts secrets learnt later, in the file already written and in later lines', async () => {
    const log = new ContainerLog(join(dir, 'container.log'));
    log.write('client secret is s3cret-value-1 ok\n');
    log.redact(['s3cret-value-1', 'x']);
    log.write('again s3cret-value-1\n');
    log.close();
    const text = await readFile(log.filePath, 'utf8');
    expect(text).not.toContain('s3cret-value-1');
    expect(text).toBe('client secret is [redacted] ok\nagain [redacted]\n');
    expect(log.lastLines().join('\n')).not.toContain('s3cret-value-1');
  });
});

describe('waitForProfile', () => {
  const running = async (): Promise<string | undefined> => undefined;

  it('returns once the file is written and stable', async () => {
    const path = join(dir, 'profile.json');
    setTimeout(() => void writeFile(path, '{"version":1}'), 150);
    const result = await waitForProfile({ path, timeoutMs: 10_000, intervalMs: 20, checkExited: running });
    expect(result.kind).toBe('ready');
  });

  it('ignores an empty file', async () => {
    const path = join(dir, 'profile.json');
    await writeFile(path, '');
    const result = await waitForProfile({ path, timeoutMs: 300, intervalMs: 20, checkExited: running });
    expect(result.kind).toBe('timeout');
  });

  it('stops waiting when the container is gone', async () => {
    let calls = 0;
    const result = await waitForProfile({
      path: join(dir, 'never.json'),
      timeoutMs: 10_000,
      intervalMs: 10,
      exitCheckIntervalMs: 10,
      checkExited: async () => (++calls >= 2 ? 'it exited with code 3' : undefined),
    });
    expect(result).toMatchObject({ kind: 'exited', detail: 'it exited with code 3' });
  });

  it('gives up at the timeout', async () => {
    const result = await waitForProfile({ path: join(dir, 'never.json'), timeoutMs: 200, intervalMs: 20, checkExited: running });
    expect(result.kind).toBe('timeout');
    expect(result.elapsedMs).toBeGreaterThanOrEqual(200);
  });
});
