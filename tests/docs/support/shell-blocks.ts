/**
 * The shell blocks of the documentation, read and run the way a reader pastes them (docs/development.md,
 * "The docs as tests", states the convention for writers):
 *
 * - a ```sh (or bash, shell) fence is a block; its commands run one after the other, each in its own
 *   `bash -c`, in the file's folder, as lines typed into one terminal (a `\` at a line's end continues it;
 *   lines that are only a `# comment` are prose);
 * - a command's trailing comment states its outcome: `exit N` (else 0 is expected) and `prints "TEXT"`
 *   (or prints `TEXT`), which the command's output must hold;
 * - a command ending in `&` runs in the background, as in a terminal: the next command starts once it
 *   printed its ready line (`Press Ctrl-C to stop.`, what `serve` prints once it listens, unless a
 *   `<!-- docs-test: ready "TEXT" -->` before the fence names another) or exited; it is stopped (SIGTERM
 *   to its process group, SIGKILL 10 s later) when the file's blocks are done;
 * - `<!-- docs-test: skip REASON -->` before a fence skips it with that reason (it needs Docker, k6, a
 *   clone of the repository or a deployment the test cannot stand for).
 *
 * Every wait is bounded: a command gets `timeoutMs`, a background command `readyMs` to be ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ShellCommand {
  /** The command as bash receives it (continuations joined, trailing comment and `&` removed). */
  text: string;
  /** The line of the Markdown file the command starts on (1-based). */
  line: number;
  background: boolean;
  expectExit: number;
  expectPrints: string[];
}

export interface ShellBlock {
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  skip?: string;
  ready?: string;
  commands: ShellCommand[];
}

const FENCE_OPEN = /^(\s*)```(?:sh|bash|shell)\s*$/;
const DIRECTIVE = /^\s*<!--\s*docs-test:\s*(skip|ready)\s+(.*?)\s*-->\s*$/;
export const DEFAULT_READY = 'Press Ctrl-C to stop.';

/** Where a `#` outside quotes, after whitespace, starts the line's comment (or -1). */
function commentStart(text: string): number {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === '\\' && quote === '"') i += 1;
      else if (ch === quote) quote = undefined;
    } else if (ch === '\\') {
      i += 1;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return i;
    }
  }
  return -1;
}

function unquote(text: string): string {
  return /^(["'`])(.*)\1$/.exec(text.trim())?.[2] ?? text.trim();
}

/** The outcome a command's trailing comment states. */
export function expectations(comment: string): { expectExit: number; expectPrints: string[] } {
  const exit = /\bexit (\d+)\b/.exec(comment);
  const prints = [...comment.matchAll(/\bprints (?:"([^"]*)"|`([^`]*)`)/g)].map((match) => match[1] ?? match[2]!);
  return { expectExit: exit ? Number(exit[1]) : 0, expectPrints: prints };
}

function toCommand(raw: string, line: number): ShellCommand | undefined {
  const at = commentStart(raw);
  const code = (at < 0 ? raw : raw.slice(0, at)).trim();
  if (code === '') return undefined;
  const background = /(^|[^&])&$/.test(code);
  return { text: background ? code.slice(0, -1).trim() : code, line, background, ...expectations(at < 0 ? '' : raw.slice(at + 1)) };
}

/** The shell blocks of a Markdown text, in order. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  let directives: { skip?: string; ready?: string } = {};
  for (let index = 0; index < lines.length; index += 1) {
    const directive = DIRECTIVE.exec(lines[index]!);
    if (directive) {
      directives = { ...directives, [directive[1]!]: directive[1] === 'ready' ? unquote(directive[2]!) : directive[2]! };
      continue;
    }
    const open = FENCE_OPEN.exec(lines[index]!);
    if (!open) {
      if (/^\s*```/.test(lines[index]!)) {
        // Another fence: skip its body so that its lines are not read as fences or directives.
        const indent = /^(\s*)/.exec(lines[index]!)![1]!;
        index += 1;
        while (index < lines.length && lines[index]!.trimEnd() !== `${indent}\`\`\``) index += 1;
      }
      if ((lines[index] ?? '').trim() !== '') directives = {};
      continue;
    }
    const indent = open[1]!;
    const block: ShellBlock = { file, line: index + 1, ...directives, commands: [] };
    directives = {};
    let pending = '';
    let pendingLine = 0;
    let end = index + 1;
    for (; end < lines.length && lines[end]!.trimEnd() !== `${indent}\`\`\``; end += 1) {
      const text = lines[end]!.startsWith(indent) ? lines[end]!.slice(indent.length) : lines[end]!;
      if (pending === '') pendingLine = end + 1;
      if (/\\$/.test(text) && commentStart(text) < 0) {
        pending += `${text.slice(0, -1)} `;
        continue;
      }
      const command = toCommand(pending + text, pendingLine);
      pending = '';
      if (command) block.commands.push(command);
    }
    if (end === lines.length) throw new Error(`${file}:${index + 1}: a shell fence that is never closed`);
    blocks.push(block);
    index = end;
  }
  return blocks;
}

export interface CommandOutcome {
  command: ShellCommand;
  code: number | null;
  output: string;
  /** Empty when the command did what its block says. */
  problems: string[];
}

export interface RunSetup {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  readyMs: number;
}

/** A background command's process group; `stop` ends it and waits. */
interface Background {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Runs blocks in one folder as one terminal would, keeping its background commands until `stopAll`. */
export class ShellSession {
  private readonly background: Background[] = [];

  constructor(private readonly setup: RunSetup) {}

  /** Runs every command of the block; returns each one's outcome. */
  async runBlock(block: ShellBlock): Promise<CommandOutcome[]> {
    const outcomes: CommandOutcome[] = [];
    for (const command of block.commands) {
      outcomes.push(command.background ? await this.startBackground(command, block.ready ?? DEFAULT_READY) : await this.runOne(command));
    }
    return outcomes;
  }

  private spawn(command: ShellCommand): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    // detached: its own process group, so that stopping it reaches whatever it started (npx, node, a server).
    const child = spawn('bash', ['-o', 'pipefail', '-c', command.text], { cwd: this.setup.cwd, env: this.setup.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((done) => child.on('close', (code, signal) => done(code ?? (signal ? 128 + signalNumber(signal) : null))));
    return { child, output: () => output, exited };
  }

  private judge(command: ShellCommand, code: number | null, output: string, timedOut: boolean): CommandOutcome {
    const problems: string[] = [];
    if (timedOut) problems.push(`did not finish within ${this.setup.timeoutMs / 1000} s`);
    else if (code !== command.expectExit) problems.push(`exited ${code}, the docs say ${command.expectExit}`);
    for (const text of command.expectPrints) if (!output.includes(text)) problems.push(`did not print "${text}"`);
    return { command, code, output, problems };
  }

  private async runOne(command: ShellCommand): Promise<CommandOutcome> {
    const { child, output, exited } = this.spawn(command);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, this.setup.timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return this.judge(command, code, output(), timedOut);
  }

  private async startBackground(command: ShellCommand, ready: string): Promise<CommandOutcome> {
    const { child, output, exited } = this.spawn(command);
    let code: number | null | undefined;
    void exited.then((value) => (code = value));
    this.background.push({ child, exited: exited.then(() => undefined) });
    const deadline = Date.now() + this.setup.readyMs;
    // Polling the captured output, bounded by the deadline.
    while (!output().includes(ready) && code === undefined && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    if (output().includes(ready)) return { command, code: null, output: output(), problems: command.expectPrints.filter((text) => !output().includes(text)).map((text) => `did not print "${text}"`) };
    if (code !== undefined) return this.judge(command, code, output(), false);
    return { command, code: null, output: output(), problems: [`printed no "${ready}" within ${this.setup.readyMs / 1000} s`] };
  }

  /** Stops every background command (SIGTERM to its group, SIGKILL after 10 s) and waits for them. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.background.splice(0).map(async ({ child, exited }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        killGroup(child, 'SIGTERM');
        const killer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }),
    );
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string] ?? 0;
}

/** One line per problem, with where the reader finds the command and the tail of what it printed. */
export function describeFailures(outcomes: readonly CommandOutcome[], file: string): string[] {
  return outcomes
    .filter((outcome) => outcome.problems.length > 0)
    .map((outcome) => `${file}:${outcome.command.line}: \`${outcome.command.text}\` ${outcome.problems.join('; ')}\n${outcome.output.split('\n').slice(-15).join('\n')}`);
}
