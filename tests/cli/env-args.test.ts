import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/cli/command.js';
import { envArgs } from '../../src/cli/env-args.js';
import { booleanRow, customRow, textRow } from '../../src/cli/option-grammar.js';

const run = defineCommand({
  command: 'run',
  describe: 'run',
  options: {
    profile: textRow({ describe: 'p' }),
    'rate-limit': customRow({ tag: 'rate', parse: Number, describe: 'r' }),
    strict: booleanRow({ describe: 's' }),
  },
  run: async () => 0,
});
const list = defineCommand({ command: 'list', describe: 'list', options: { format: textRow({ describe: 'f' }) }, run: async () => 0 });
const commands = [run, list];

describe('ACCESS_CONFORMANCE_<FLAG> variables', () => {
  it('become flags of the command that declares them; a boolean as --flag or --no-flag', () => {
    const env = { ACCESS_CONFORMANCE_PROFILE: 'a.json', ACCESS_CONFORMANCE_RATE_LIMIT: '5', ACCESS_CONFORMANCE_STRICT: 'true' };
    expect(envArgs(['run'], commands, env).args.sort()).toEqual(['--profile=a.json', '--rate-limit=5', '--strict']);
  });

  it('a boolean takes the one grammar (1/0, yes/no, on/off, any case); anything else names the variable', () => {
    for (const [value, flag] of [['1', '--strict'], ['YES', '--strict'], ['on', '--strict'], ['0', '--no-strict'], ['No', '--no-strict'], ['OFF', '--no-strict']]) {
      expect(envArgs(['run'], commands, { ACCESS_CONFORMANCE_STRICT: value! }).args).toEqual([flag]);
    }
    expect(() => envArgs(['run'], commands, { ACCESS_CONFORMANCE_STRICT: 'maybe' })).toThrow(
      expect.objectContaining({ code: 'USAGE', field: 'ACCESS_CONFORMANCE_STRICT' }),
    );
  });

  it('an empty variable counts as unset', () => {
    expect(envArgs(['run'], commands, { ACCESS_CONFORMANCE_PROFILE: '', ACCESS_CONFORMANCE_STRICT: ' ' })).toEqual({ args: [], unknown: [] });
  });

  it('are ignored by commands that do not declare them, without an error', () => {
    expect(envArgs(['list'], commands, { ACCESS_CONFORMANCE_PROFILE: 'a.json' })).toEqual({ args: [], unknown: [] });
  });

  it('lose to the command line', () => {
    const env = { ACCESS_CONFORMANCE_PROFILE: 'a.json', ACCESS_CONFORMANCE_STRICT: 'true' };
    expect(envArgs(['run', '--profile', 'b.json', '--no-strict'], commands, env).args).toEqual([]);
    expect(envArgs(['run', '--profile=b.json'], commands, env).args).toEqual(['--strict']);
  });

  it('that no command declares are reported as probable typos', () => {
    expect(envArgs(['run'], commands, { ACCESS_CONFORMANCE_PROFLE: 'a.json' }).unknown).toEqual(['ACCESS_CONFORMANCE_PROFLE']);
  });
});
