/**
 * The container's output: every line goes to <reportDir>/container.log, and the last few are kept in memory
 * so that a failed start can quote them in its error message.
 *
 * Lines are written whole (a partial line waits for its newline) so that redaction never misses a secret
 * split across two chunks. Secrets are only known once the profile is loaded: {@link ContainerLog.redact}
 * then rewrites what was written so far and redacts every later line.
 */
import { closeSync, mkdirSync, openSync, readFileSync, ftruncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { runSecrets } from '../client/secret-registry.js';
import { within } from '../stop/within.js';

export const DEFAULT_TAIL_LINES = 30;
const REDACTED = '[redacted]';

export class ContainerLog {
  readonly filePath: string;
  private readonly tailSize: number;
  private readonly tail: string[] = [];
  private partial = '';
  private fd: number | undefined;
  private secrets: string[] = [];
  private endedPromise: Promise<void> = Promise.resolve();

  constructor(filePath: string, tailSize = DEFAULT_TAIL_LINES) {
    this.filePath = filePath;
    this.tailSize = tailSize;
    mkdirSync(dirname(filePath), { recursive: true });
    // Truncate, then append: with O_APPEND every write lands at the end, also after redact() shortened it.
    closeSync(openSync(filePath, 'w'));
    this.fd = openSync(filePath, 'a');
  }

  /** Consumes a text stream (the container's merged stdout and stderr). */
  attach(stream: Readable): void {
    stream.setEncoding('utf8');
    this.endedPromise = new Promise<void>((resolve) => {
      stream.on('data', (chunk: string) => this.write(chunk));
      stream.on('end', () => {
        this.flush();
        resolve();
      });
      stream.on('close', () => resolve());
      // A broken log stream must not break the run: the file simply stops there.
      stream.on('error', (error: Error) => {
        this.write(`\n[access-conformance] container log stream failed: ${error.message}\n`);
        resolve();
      });
    });
  }

  /** Adds text; only complete lines are stored. */
  write(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.addLine(line.replace(/\r$/, ''));
  }

  /** Stores a pending partial line (at the end of the stream). */
  flush(): void {
    if (this.partial !== '') {
      const line = this.partial;
      this.partial = '';
      this.addLine(line);
    }
  }

  /** The last lines seen, oldest first, including a pending partial line. */
  lastLines(): string[] {
    const lines = [...this.tail];
    if (this.partial !== '') lines.push(this.redactLine(this.partial));
    return lines.slice(-this.tailSize);
  }

  /** The last lines formatted for an error message. */
  formatTail(): string {
    const lines = this.lastLines();
    if (lines.length === 0) return '(the container printed nothing)';
    return `last ${lines.length} line(s) of the container's log:\n${lines.map((line) => `  | ${line}`).join('\n')}`;
  }

  /** Waits until the stream ended (the container stopped), at most `timeoutMs`. */
  async ended(timeoutMs: number): Promise<void> {
    await within(this.endedPromise, timeoutMs, () => undefined);
  }

  /** From now on replaces each secret by a marker, and rewrites what the file already holds. */
  redact(secrets: readonly string[]): void {
    // Longest first, so that a secret containing another is replaced whole.
    this.secrets = [...new Set(secrets.filter((secret) => secret.length >= 4))].sort((a, b) => b.length - a.length);
    if (this.secrets.length === 0) return;
    for (let i = 0; i < this.tail.length; i += 1) this.tail[i] = this.redactLine(this.tail[i]);
    if (this.fd === undefined) return;
    const before = readFileSync(this.filePath, 'utf8');
    const after = this.redactLine(before);
    if (after !== before) {
      ftruncateSync(this.fd, 0);
      writeSync(this.fd, after);
    }
  }

  close(): void {
    this.flush();
    // The last pass: tokens the run obtained after a line was written (any worker) are known by now.
    if (this.fd !== undefined && this.secrets.length > 0) {
      const before = readFileSync(this.filePath, 'utf8');
      const after = runSecrets().redact(before);
      if (after !== before) {
        ftruncateSync(this.fd, 0);
        writeSync(this.fd, after);
      }
    }
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private addLine(raw: string): void {
    const line = this.redactLine(raw);
    this.tail.push(line);
    if (this.tail.length > this.tailSize) this.tail.shift();
    if (this.fd !== undefined) writeSync(this.fd, `${line}\n`);
  }

  private redactLine(line: string): string {
    let out = line;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    // Once the profile is known, the run's registry too: every shape of every secret and token so far.
    return this.secrets.length > 0 ? runSecrets().redact(out) : out;
  }
}
