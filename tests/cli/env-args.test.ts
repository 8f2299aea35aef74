import { describe, expect, it } from 'vitest';
import { defineCommand, type CliCommand } from '../../src/cli/command.js';
import { envArgs } from '../../src/cli/env-args.js';

const run = defineCommand({
  command: 'run',
  describe: 'run',
  builder: (y) => y.option('profile', { type: 'string' }).option('rate-limit', { type: 'number' }).option('strict', { type: 'boolean' }),
  run: async () => 0,
});
const list = defineCommand({
  command: 'list',
  describe: 'list',
  builder: (y) => y.option('format', { type: 'string' }),
  run: async () => 0,
});
const commands = [run, list] as unknown as ReadonlyArray<CliCommand<never>>;

describe('ACCESS_CONFORMANCE_<FLAG> variables', () => {
  it('become flags of the command that declares them', () => {
    const env = { ACCESS_CONFORMANCE_PROFILE: 'a.json', ACCESS_CONFORMANCE_RATE_LIMIT: '5', ACCESS_CONFORMANCE_STRICT: 'true' };
    expect(envArgs(['run'], commands, env).args.sort()).toEqual(['--profile=a.json', '--rate-limit=5', '--strict=true']);
  });

  it('are ignored by commands that do not declare them, without an error', () => {
    expect(envArgs(['list'], commands, { ACCESS_CONFORMANCE_PROFILE: 'a.json' })).toEqual({ args: [], unknown: [] });
  });

  it('lose to the command line', () => {
    const env = { ACCESS_CONFORMANCE_PROFILE: 'a.json', ACCESS_CONFORMANCE_STRICT: 'true' };
    expect(envArgs(['run', '--profile', 'b.json', '--no-strict'], commands, env).args).toEqual([]);
    expect(envArgs(['run', '--profile=b.json'], commands, env).args).toEqual(['--strict=true']);
  });

  it('that no command declares are reported as probable typos', () => {
    expect(envArgs(['run'], commands, { ACCESS_CONFORMANCE_PROFLE: 'a.json' }).unknown).toEqual(['ACCESS_CONFORMANCE_PROFLE']);
  });
});
