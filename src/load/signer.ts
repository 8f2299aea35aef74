/**
 * The driver's handle on signing: a worker thread when the compiled worker file exists (the CLI, dist/),
 * otherwise the same signer on the main thread (tests running the TypeScript sources directly).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HarnessError } from '../errors.js';
import { createSigner, type SignedItem, type SignJob } from './signing.js';

export interface SignerHandle {
  /** Where signing happens, for the report. */
  readonly where: 'worker-thread' | 'main-thread';
  sign(count: number): Promise<SignedItem[]>;
  close(): Promise<void>;
}

export function startSigner(job: SignJob): SignerHandle {
  const workerUrl = new URL('./sign-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(workerUrl))) {
    const sign = createSigner(job);
    return { where: 'main-thread', sign, close: async () => {} };
  }
  const worker = new Worker(workerUrl, { workerData: job });
  // The worker must not keep the process alive once the run is over.
  worker.unref();
  let nextId = 0;
  const pending = new Map<number, { resolve: (items: SignedItem[]) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  worker.on('message', (message: { id: number; items?: SignedItem[]; error?: string }) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.items) entry.resolve(message.items);
    else entry.reject(new HarnessError('KEY_INVALID', `signing failed: ${message.error ?? 'unknown error'}`));
  });
  worker.on('error', (error) => failAll(new HarnessError('INTERNAL', `the signing worker failed: ${error.message}`, { cause: error })));
  worker.on('exit', () => failAll(new HarnessError('INTERNAL', 'the signing worker stopped')));
  return {
    where: 'worker-thread',
    sign(count) {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, count });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
