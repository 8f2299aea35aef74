/** `serve` refuses bad flags with a clear message and exit code 2, before starting anything. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

let stderr = '';
afterEach(() => {
  vi.restoreAllMocks();
  stderr = '';
});

async function run(args: string[]): Promise<number> {
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return main(['serve', ...args]);
}

describe('serve flags', () => {
  it.each([
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--port', '1.5'], /--port must be a whole number/],
    [['--port', 'abc'], /--port must be a whole number/],
    [['--public-url', 'ftp://x'], /--public-url must be an http\(s\) base URL/],
    [['--public-url', 'http://x/path'], /without a path/],
    [['--jwks-host', 'a b'], /--jwks-host must be a hostname/],
    [['--host', ''], /--host must not be empty/],
    [['--fault', 'no-such-fault'], /unknown fault or variant "no-such-fault"/],
    [['--no-such-flag'], /Unknown argument/],
  ])('%j → exit 2', async (args, message) => {
    expect(await run(args)).toBe(2);
    expect(stderr).toMatch(message);
  });
});
