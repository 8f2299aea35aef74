/**
 * The block runner of the docs test (tests/docs/shell-blocks.e2e.test.ts) over fixture Markdown: what it
 * reads as commands, outcomes, skips and background commands, and that a broken block fails, with the
 * file, the line and what went wrong (so the docs test can fail, and its failure says where).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShellSession, describeFailures, expectations, shellBlocks, type CommandOutcome } from './support/shell-blocks.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function runAll(name: string): Promise<CommandOutcome[]> {
  const cwd = await mkdtemp(join(tmpdir(), 'ac-blocks-'));
  folders.push(cwd);
  const session = new ShellSession({ cwd, env: { PATH: process.env.PATH }, timeoutMs: 20_000, readyMs: 10_000 });
  const outcomes: CommandOutcome[] = [];
  try {
    for (const block of shellBlocks(name, fixture(name))) if (block.skip === undefined) outcomes.push(...(await session.runBlock(block)));
  } finally {
    await session.stopAll();
  }
  return outcomes;
}

describe('reading the shell blocks of a Markdown file', () => {
  it('finds the commands, their lines, outcomes, skips and background commands; other fences are not shell', () => {
    const blocks = shellBlocks('blocks.md', fixture('blocks.md'));
    expect(blocks.map((block) => [block.line, block.skip, block.ready])).toEqual([
      [3, undefined, undefined],
      [13, 'needs docker', undefined],
      [18, undefined, 'listening'],
    ]);
    expect(blocks[0]!.commands.map((command) => [command.line, command.text, command.expectExit, command.expectPrints])).toEqual([
      [5, "printf 'hello\\n' > greeting.txt", 0, []],
      [6, 'cat greeting.txt', 0, ['hello']],
      [7, 'grep -q nothing greeting.txt', 1, []],
      [8, 'echo one    two', 0, ['one two']],
    ]);
    expect(blocks[2]!.commands[0]).toMatchObject({ text: "sh -c 'echo listening; sleep 60'", background: true });
  });

  it('reads a `#` inside quotes as text, and `prints` in either quoting', () => {
    const [block] = shellBlocks('x.md', "```sh\necho '# not a comment' \"#nor this\"   # prints `# not`, exit 0\n```\n");
    expect(block!.commands[0]).toMatchObject({ text: `echo '# not a comment' "#nor this"`, expectExit: 0, expectPrints: ['# not'] });
    expect(expectations(' 401: exit 1; prints "HTTP 401"')).toEqual({ expectExit: 1, expectPrints: ['HTTP 401'] });
  });

  it('refuses a fence that is never closed', () => {
    expect(() => shellBlocks('open.md', '```sh\necho x\n')).toThrow('open.md:1');
  });
});

describe('running them', () => {
  it('a block that works: in sequence, in one folder, the background command ready before the next and stopped at the end', async () => {
    const outcomes = await runAll('blocks.md');
    expect(describeFailures(outcomes, 'blocks.md')).toEqual([]);
    expect(outcomes.map((outcome) => outcome.code)).toEqual([0, 0, 1, 0, null, 0]);
    expect(outcomes.at(-1)!.output).toBe('hello\n');
  }, 30_000);

  it('a broken block fails, each command saying where it is and what it did', async () => {
    const failures = describeFailures(await runAll('broken-block.md'), 'broken-block.md');
    expect(failures.map((failure) => failure.split('\n')[0])).toEqual([
      'broken-block.md:5: `ls no-such-file-anywhere` exited 2, the docs say 0',
      "broken-block.md:6: `echo 'says one thing'` did not print \"says another\"",
      'broken-block.md:7: `false` exited 1, the docs say 0',
    ]);
    expect(failures[0]).toContain('No such file or directory');
  }, 30_000);

  it('a command that does not finish is stopped at its bound and fails', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'ac-blocks-'));
    folders.push(cwd);
    const session = new ShellSession({ cwd, env: { PATH: process.env.PATH }, timeoutMs: 500, readyMs: 500 });
    const [block] = shellBlocks('slow.md', '```sh\nsleep 30\nsleep 30 &\n```\n');
    const started = Date.now();
    const outcomes = await session.runBlock(block!);
    await session.stopAll();
    expect(outcomes.map((outcome) => outcome.problems)).toEqual([['did not finish within 0.5 s'], ['printed no "Press Ctrl-C to stop." within 0.5 s']]);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
