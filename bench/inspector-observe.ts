/**
 * What the inspector's observer costs a valid webhook (issue 45: the request log "must cost almost nothing
 * per request"). In one process, the reference's handler called directly with pre-signed HMAC webhooks
 * (fresh event ID each, the ~200-byte body of bench/reference-bench.ts), bare and wrapped as `serve` wraps
 * it (observeHandler with the request log's ring as its observer): interleaved rounds (bare, observed,
 * bare), CPU time per request from process.cpuUsage(), the median of each side and of the per-round ratios,
 * and the ratio of the two bare rounds as the control (what noise alone gives). No HTTP: the socket's fixed cost would only dilute the ratio.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { createReference } from '../src/reference/reference.js';
import type { ReferenceHandler, ReferenceRequest } from '../src/reference/types.js';
import { observeHandler } from '../src/sandbox/observe.js';
import { createRequestLog } from '../src/sandbox/request-log.js';
import { generateTenant } from '../src/tenant/generate.js';
import { median, type Bench, type BenchReport } from './registry.js';

const PER_ROUND = Number(process.env.BENCH_OBSERVE_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_OBSERVE_ROUNDS ?? 5);

function signed(secret: string, path: string, count: number): ReferenceRequest[] {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const body = Buffer.from(JSON.stringify({ user: { id: 'u-123', email: 'someone@example.com' }, action: 'grant', entitlement: 'e-456', note: 'x'.repeat(80) }));
  return Array.from({ length: count }, () => {
    const eventId = randomUUID();
    const signature = createHmac('sha256', secret).update(`${timestamp}.${eventId}.`).update(body).digest('base64url');
    return {
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', 'webhook-timestamp': timestamp, 'webhook-event-id': eventId, 'webhook-signature': signature },
      remoteAddress: '127.0.0.1',
      body,
    };
  });
}

/** CPU microseconds per request for one round; every answer must be 200. */
async function round(handler: ReferenceHandler, requests: readonly ReferenceRequest[]): Promise<number> {
  const start = process.cpuUsage();
  for (const request of requests) {
    const answer = await handler(request);
    if (answer.status !== 200) throw new Error(`a valid webhook got ${answer.status}: ${String(answer.body)}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests.length;
}

export const inspectorObserveBench: Bench = {
  name: 'inspector-observe',
  description: "CPU per valid HMAC webhook through the reference's handler, bare and wrapped by the inspector's observer and request log",
  async run(): Promise<BenchReport> {
    const tenant = await generateTenant({ seed: 'bench-inspector', host: '127.0.0.1', port: 1 });
    const path = `/api/v1/webhooks/incoming/${tenant.listeners.hmac.listenerId}`;
    // One reference per side, so neither side's idempotency store grows from the other's requests.
    const bare = createReference(tenant.reference, { logger: () => {} });
    const wrapped = createReference(tenant.reference, { logger: () => {} });
    const log = createRequestLog();
    const observed = observeHandler(wrapped.handle, () => [log.observer]);
    const load = loadavg()[0] ?? 0;
    // Warm-up: both paths compiled before anything is measured.
    await round(bare.handle, signed(tenant.listeners.hmac.secret, path, 2000));
    await round(observed, signed(tenant.listeners.hmac.secret, path, 2000));
    const plain: number[] = [];
    const watched: number[] = [];
    // The control: the bare handler measured twice a round; their ratio is what the machine's noise alone gives.
    const again: number[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      plain.push(await round(bare.handle, signed(tenant.listeners.hmac.secret, path, PER_ROUND)));
      watched.push(await round(observed, signed(tenant.listeners.hmac.secret, path, PER_ROUND)));
      again.push(await round(bare.handle, signed(tenant.listeners.hmac.secret, path, PER_ROUND)));
    }
    bare.close();
    wrapped.close();
    // Each observed round against the mean of the bare rounds on either side of it.
    const ratios = watched.map((w, i) => w / ((plain[i]! + again[i]!) / 2));
    const noise = again.map((a, i) => a / plain[i]!);
    return {
      name: 'inspector-observe',
      metrics: [
        { label: 'bare handler, CPU per valid webhook', value: Number(median(plain).toFixed(2)), unit: 'µs' },
        { label: 'observed handler, CPU per valid webhook', value: Number(median(watched).toFixed(2)), unit: 'µs' },
        { label: 'observed / bare (median of rounds)', value: Number(median(ratios).toFixed(3)), unit: 'x' },
        { label: 'bare / bare, the control (median of rounds)', value: Number(median(noise).toFixed(3)), unit: 'x' },
      ],
      notes: [
        `${ROUNDS} interleaved rounds (bare, observed, bare) of ${PER_ROUND} pre-signed webhooks each, in process, no HTTP; observed over the mean of the bare rounds around it: ${ratios.map((x) => x.toFixed(3)).join(', ')}; the control, second bare over first: ${noise.map((x) => x.toFixed(3)).join(', ')}.`,
        `Load average (1 min) at the start: ${load.toFixed(2)} on ${process.platform} (a shared machine: read the ratio, not the microseconds).`,
      ],
    };
  },
};
