/**
 * Child process for tests/engine/passed-exchanges.e2e.test.ts (runConformance drives vitest itself, so it runs
 * outside the test's own vitest). One session, three runs of the same checks against the reference: with a
 * reporter that reads passed checks' exchanges, with one that says it does not, and with none. Prints one
 * JSON line: per run, how many passed results carry exchanges, and how many failed ones (a fault's).
 */
import { openEngineSession, type EngineReporter, type RunSummary } from '../../../src/engine/index.js';
import { getFault } from '../../../src/faults/index.js';
import { loadProfile } from '../../../src/profile/index.js';
import { startSandbox } from '../../../src/tenant/index.js';

const sandbox = await startSandbox({
  seed: 'passed-exchanges',
  hooks: true,
  logger: () => undefined,
  // Any signature accepted: the WH-HMAC checks that send a wrong one fail, the others pass.
  customize: getFault('hmac-presence-only')!.customize,
});
const counts = (summary: RunSummary): { passed: number; passedWithExchanges: number; notPassedWithExchanges: number } => ({
  passed: summary.results.filter((r) => r.state === 'passed').length,
  passedWithExchanges: summary.results.filter((r) => r.state === 'passed' && r.exchanges.length > 0).length,
  notPassedWithExchanges: summary.results.filter((r) => r.state !== 'passed' && r.state !== 'skipped' && r.exchanges.length > 0).length,
});
try {
  const profile = await loadProfile(sandbox.profilePath);
  const session = openEngineSession({ concurrency: 4, client: { timeoutMs: 5_000 } });
  const out: Record<string, unknown> = {};
  try {
    const readers: Array<[string, EngineReporter[]]> = [
      ['reads', [{ readsPassedExchanges: true }]],
      ['unsaid', [{}]],
      ['doesNotRead', [{ readsPassedExchanges: false }]],
      ['none', []],
    ];
    for (const [name, reporters] of readers) {
      const summary = await session.run({ profile, selection: { only: ['WH-HMAC-*'], skip: [] }, seed: 'passed-exchanges', strict: false, reporters });
      out[name] = counts(summary);
    }
  } finally {
    await session.close();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
} finally {
  await sandbox.close();
}
