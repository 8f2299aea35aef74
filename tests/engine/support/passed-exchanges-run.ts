/**
 * Child process for tests/engine/passed-exchanges.e2e.test.ts (runConformance drives vitest itself, so it runs
 * outside the test's own vitest). One session, three runs of the same checks against the reference: with a
 * reporter that reads passed checks' exchanges, with one that says it does not, and with none. Prints one
 * JSON line: per run, how many passed results carry exchanges, and how many failed ones (a fault's); then,
 * against a target that refuses every client assertion, how many blocked refusals carry theirs.
 */
import { openEngineSession, type EngineReporter, type RunSummary } from '../../../src/engine/index.js';
import { getFault } from '../../../src/faults/index.js';
import { controlsOf } from '../../../src/requirements/controls.js';
import { loadProfile } from '../../../src/profile/index.js';
import { startSandbox } from '../../../src/tenant/index.js';

const sandbox = await startSandbox({
  seed: 'passed-exchanges',
  hooks: true,
  logger: () => undefined,
  // Any signature accepted: the WH-HMAC checks that send a wrong one fail, the others pass.
  customize: getFault('hmac-presence-only')!.customize,
});
const counts = (summary: RunSummary): Record<string, number> => ({
  passed: summary.results.filter((r) => r.state === 'passed').length,
  passedWithExchanges: summary.results.filter((r) => r.state === 'passed' && r.exchanges.length > 0).length,
  // A refusal with a positive control keeps its exchanges whatever the reporters (it may end up blocked).
  passedWithoutControlWithExchanges: summary.results.filter((r) => r.state === 'passed' && controlsOf(r.id).length === 0 && r.exchanges.length > 0).length,
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
  // A refusal whose control fails passes in the worker and is blocked by the engine: every report shows a
  // blocked check's exchanges, so it keeps them whatever the reporters read.
  const refusing = await startSandbox({ seed: 'passed-exchanges', hooks: true, logger: () => undefined, customize: getFault('assertion-grant-unsupported')!.customize });
  try {
    const again = openEngineSession({ concurrency: 4, client: { timeoutMs: 5_000 } });
    try {
      const summary = await again.run({ profile: await loadProfile(refusing.profilePath), selection: { only: ['TOK-*'], skip: [] }, seed: 'passed-exchanges', strict: false, reporters: [{ readsPassedExchanges: false }] });
      const blocked = summary.results.filter((r) => r.state === 'blocked');
      out.blocked = { count: blocked.length, withExchanges: blocked.filter((r) => r.exchanges.length > 0).length };
    } finally {
      await again.close();
    }
  } finally {
    await refusing.close();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
} finally {
  await sandbox.close();
}
