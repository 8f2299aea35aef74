/**
 * The examples every command's `--help` prints, as the command declares them (its builder's `.example()`
 * calls, recorded through a stand-in for yargs): the text, not the wrapped columns of the help screen.
 */
import { COMMANDS } from '../../../src/cli/main.js';
import { isLoaded } from '../../../src/cli/command-table.js';
import type { AnyCommand } from '../../../src/cli/command.js';

export interface HelpExample {
  /** The command word whose --help prints it. */
  command: string;
  /** As printed, with `$0` as the program name. */
  text: string;
  describe: string;
}

/** A yargs stand-in that records `.example()` calls and answers every other call with itself. */
function recorder(examples: Array<[string, string]>): unknown {
  const proxy: unknown = new Proxy(() => undefined, {
    get: (_target, key) => (key === 'example' ? (text: string, describe: string) => (examples.push([text, describe]), proxy) : () => proxy),
  });
  return proxy;
}

export async function helpExamples(programName = 'access-conformance'): Promise<HelpExample[]> {
  const out: HelpExample[] = [];
  for (const entry of COMMANDS) {
    const command: AnyCommand = isLoaded(entry) ? entry : await entry.load();
    const examples: Array<[string, string]> = [];
    command.builder?.(recorder(examples) as never, true);
    const word = command.command.split(' ')[0]!;
    for (const [text, describe] of examples) out.push({ command: word, text: text.replaceAll('$0', programName), describe });
  }
  return out;
}
