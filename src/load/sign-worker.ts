/**
 * Worker-thread entry: signs batches for the driver so JWT signing (RSA especially) never delays a send.
 * Protocol: workerData is a SignJob; each message {id, count} is answered {id, items} or {id, error}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSigner, type SignJob } from './signing.js';

const port = parentPort;
if (port) {
  const sign = createSigner(workerData as SignJob);
  port.on('message', (message: { id: number; count: number }) => {
    sign(message.count).then(
      (items) => port.postMessage({ id: message.id, items }),
      (error: unknown) => port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
