/**
 * Text helpers of `send`: reading a body within a bound, quoting for a shell, and showing a response body
 * that is hostile text (a target may answer anything: escape sequences, control characters, megabytes).
 */
import { open } from 'node:fs/promises';
import { HarnessError } from '../../errors.js';
import { capText, moreBytesNote, visibleControls } from '../../escape.js';

/** Response bytes shown at most; the rest is counted, not printed. */
export const SHOWN_RESPONSE_BYTES = 4096;

/**
 * The body from --data, a file or stdin ("-"), reading at most `limit + 1` bytes so an oversized file is
 * refused without being loaded whole.
 */
export async function readBody(source: { data: string } | { file: string }, limit: number): Promise<Buffer> {
  if ('data' in source) return Buffer.from(source.data, 'utf8');
  if (source.file === '-') return readStream(process.stdin, limit);
  let handle;
  try {
    handle = await open(source.file, 'r');
  } catch (error) {
    throw new HarnessError('USAGE', `cannot read the body file ${source.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      field: '--file',
    });
  }
  try {
    const buffer = Buffer.alloc(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

async function readStream(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8');
    chunks.push(bytes);
    total += bytes.length;
    // One byte past the limit is enough to refuse; stop reading there.
    if (total > limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit + 1);
}

/**
 * A response body made safe for a terminal: controls and bidirectional overrides made visible (escape.ts),
 * and at most SHOWN_RESPONSE_BYTES bytes shown.
 */
export function showResponseBody(text: string): string {
  const cut = capText(text, SHOWN_RESPONSE_BYTES);
  const shown = visibleControls(cut.text);
  return cut.moreBytes > 0 ? `${shown}\n${moreBytesNote(cut.moreBytes)} not shown` : shown;
}
