/**
 * The profile of a bench's own minimal server (bench/load-bench.ts, bench/hot-path-bench.ts): one HMAC
 * listener with a fixed secret, nothing else the webhook-hmac scenario reads.
 */
import type { ResolvedProfile } from '../src/profile/types.js';

export const BENCH_HMAC_SECRET = 'bench-hmac-secret';

export function benchProfile(baseUrl: string): ResolvedProfile {
  return {
    version: 1,
    name: 'bench server',
    baseUrl,
    tenantDomain: '127.0.0.1',
    webhookBaseUrl: baseUrl,
    tls: { insecureSkipVerify: false },
    credentials: { primary: { clientId: 'bench-client-0001@127.0.0.1/load', clientSecret: 'unused' } },
    apps: { entitlements: {} },
    webhooks: { hmac: { listenerId: 'wh_bench', secret: BENCH_HMAC_SECRET } },
    limits: { webhookBodyBytes: 65_536 },
    // What a report or log line masks: the listener secret, as a loaded profile would list it.
    secrets: [BENCH_HMAC_SECRET],
  };
}
