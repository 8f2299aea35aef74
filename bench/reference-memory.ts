/**
 * Child process of the reference bench, run with --expose-gc: the heap cost of one remembered event in the
 * reference's event store. Claims N events with fresh UUIDs (as the webhook handler does: listener ID +
 * lower-cased event ID), forcing full collections before and after, and prints the delta per event as JSON.
 */
import { randomUUID } from 'node:crypto';
import { createMemoryEventStore } from '../src/reference/event-store.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

function settle(): number {
  for (let i = 0; i < 4; i += 1) gc?.();
  return process.memoryUsage().heapUsed;
}

const count = Number(process.argv[2] ?? 100_000);
const listeners = ['wh_HQPXGF651V', 'wh_5YFJZKHPUR'];
const store = createMemoryEventStore();
const now = Date.now() / 1000;
const before = settle();
for (let i = 0; i < count; i += 1) {
  // A fresh string per event, as a header value would be.
  store.claim(listeners[i % 2] as string, randomUUID().toLowerCase(), now + i * 0.001);
}
const after = settle();
if (store.size() !== count) throw new Error(`expected ${count} records, found ${store.size()}`);
process.stdout.write(`${JSON.stringify({ count, bytesPerEvent: (after - before) / count, heapDelta: after - before })}\n`);
