/**
 * A real sandbox on 127.0.0.1 with the wrappers `serve` puts around the reference (diagnoses and the
 * console lines, every request), plus what the tests ask of it: send a request over HTTP, and ask the
 * unwrapped reference the same request (today's status, `error` and headers).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ReferenceRequest } from '../../../src/reference/types.js';
import { consoleLines } from '../../../src/sandbox/console-lines.js';
import { sandboxCustomize } from '../../../src/sandbox/customize.js';
import { call, type WireResponse } from '../../reference/support/wire.js';
import { startTestSandbox, type TestSandbox } from '../../reference/support/sandbox.js';
import type { BuildContext, SentRequest } from './mistakes-sent.js';

export interface DiagnosingSandbox {
  box: TestSandbox;
  /** Every console line printed. */
  printed: string[];
  /** Every refused answer's body and headers as text. */
  refusals: string[];
  /** The correct digests of every request sent (for the oracle test). */
  correct: string[];
  context(): Promise<BuildContext>;
  send(request: SentRequest): Promise<WireResponse>;
  unwrapped(request: SentRequest): Promise<{ status: number; error: unknown; headers: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startDiagnosingSandbox(): Promise<DiagnosingSandbox> {
  const printed: string[] = [];
  const refusals: string[] = [];
  const correct: string[] = [];
  const lines = consoleLines({ mode: 'all', write: (line) => printed.push(line), linesPerSecond: 100_000 });
  const box = await startTestSandbox({ serveJwks: true, customize: sandboxCustomize(undefined, { observers: () => [lines.observe] }) });
  return {
    box,
    printed,
    refusals,
    correct,
    context: async () => ({ tenant: box.sandbox.tenant, now: await box.clock(), uuid: () => randomUUID() }),
    async send(request) {
      correct.push(...request.correct);
      const answer = await call(`${box.baseUrl}${request.path}`, { method: request.method, headers: request.headers, ...(request.method === 'GET' ? {} : { body: request.body }) });
      // A 200 from the token endpoint carries its token by design; every refusal is searched.
      if (answer.status >= 400) refusals.push(answer.text, JSON.stringify([...answer.headers]));
      return answer;
    },
    async unwrapped(request) {
      const asked: ReferenceRequest = { method: request.method, url: request.path, headers: request.headers, remoteAddress: '127.0.0.1', body: Buffer.from(request.body) };
      const answer = await box.sandbox.reference.handle(asked);
      return { status: answer.status, error: JSON.parse(String(answer.body)).error, headers: answer.headers };
    },
    close: () => box.close(),
  };
}

/** No refusal and no console line holds a secret, key material, an issued token or a correct digest. */
export function expectNothingSecret(sandbox: DiagnosingSandbox, tokens: readonly string[] = []): void {
  const { tenant } = sandbox.box.sandbox;
  const secrets = [
    ...Object.values(tenant.listeners).flatMap((l) => ('secret' in l ? [l.secret] : [])),
    ...Object.values(tenant.credentials).flatMap((c) => [c.clientSecret, c.clientSecret.split(':').at(-1)!]),
    ...tenant.listeners.jwt.signingKeys.flatMap((k) => Object.entries(k).filter(([name]) => ['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(name)).map(([, v]) => String(v))),
    tenant.hooks.token,
  ];
  const forbidden = [...secrets, ...sandbox.correct, ...tokens].filter((s) => s.length >= 16);
  expect(forbidden.length).toBeGreaterThan(20);
  for (const text of [...sandbox.refusals, ...sandbox.printed]) for (const secret of forbidden) expect(text.includes(secret), `leaked in ${text.slice(0, 120)}`).toBe(false);
  // Not even a piece: every 16 characters of a secret's random part (a Client Secret's public prefix aside),
  // so a value cut short (a credential echoed as a "scheme", then shortened) is caught too.
  const pieces = new Set<string>();
  for (const secret of [...secrets.filter((s) => !s.startsWith('secret-token:')), ...tokens]) for (let i = 0; i + 16 <= secret.length; i += 1) pieces.add(secret.slice(i, i + 16));
  for (const text of [...sandbox.refusals, ...sandbox.printed]) {
    for (let i = 0; i + 16 <= text.length; i += 1) expect(pieces.has(text.slice(i, i + 16)), `a piece of a secret in ${text.slice(0, 120)}`).toBe(false);
  }
}
