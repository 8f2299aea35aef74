/**
 * A verification worker process: runs faults one after another through one suite session (see
 * session.ts), as the parent asks over IPC. Each fault gets its own sandbox (tenant, keys, ports), started
 * with the fault's customisation exactly as `run --fault` starts it, and closed before the next.
 */
import { loadProfile } from '../../profile/index.js';
import { startSandbox } from '../../tenant/index.js';
import { customizeFor } from '../changes.js';
import type { InitRequest, ParentMessage, RunReport, RunRequest, WorkerMessage } from './protocol.js';
import { createSuiteSession, type SuiteSession } from './session.js';

function send(message: WorkerMessage): void {
  process.send?.(message);
}

async function runFault(session: SuiteSession, request: RunRequest): Promise<RunReport> {
  const customize = customizeFor(request.fault);
  if (customize === undefined) throw new Error(`unknown fault or variant ${request.fault}`);
  // The reference's operational lines (the unreachable JWKS, on purpose) are not the verification's business.
  const sandbox = await startSandbox({ seed: request.seed, hooks: true, customize, logger: () => undefined });
  try {
    const profile = await loadProfile(sandbox.profilePath);
    const run = await session.run(profile, request.ids, request.seed);
    return {
      results: run.results.map((result) => ({
        id: result.id,
        state: result.state,
        ...(result.failure ? { failure: { message: result.failure.message } } : {}),
        ...(result.harnessError ? { harnessError: { message: `${result.harnessError.code}: ${result.harnessError.message}` } } : {}),
        ...(result.reason ? { reason: result.reason } : {}),
        ...(result.blockedBy ? { blockedBy: { control: result.blockedBy.control, ...(result.blockedBy.ownRequest ? { ownRequest: true } : {}) } } : {}),
      })),
      harnessErrors: run.harnessErrors.map((message) => ({ message })),
    };
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  process.on('disconnect', () => process.exit(0));
  const init = await new Promise<InitRequest>((resolve) => {
    const onInit = (message: ParentMessage): void => {
      if (message.type !== 'init') return;
      process.off('message', onInit);
      resolve(message);
    };
    process.on('message', onInit);
    send({ type: 'started' });
  });
  const session = createSuiteSession({ checksInFlight: init.checksInFlight, timeoutMs: init.timeoutMs });
  let queue = Promise.resolve();
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'init') return;
    if (message.type === 'exit') {
      queue = queue.then(async () => {
        await session.close();
        process.exit(0);
      });
      return;
    }
    queue = queue.then(async () => {
      const started = Date.now();
      try {
        const report = await runFault(session, message);
        send({ type: 'result', job: message.job, report, durationMs: Date.now() - started });
      } catch (error) {
        send({ type: 'failed', job: message.job, error: (error as Error)?.stack ?? String(error), durationMs: Date.now() - started });
      }
    });
  });
  send({ type: 'ready' });
}

await main();
