/**
 * The process bench/state-crash.ts kills: opens the state DIR given as argv[2] with serve's own code
 * (openStateDir) and claims fresh event IDs with 64 in flight, keeping a run for each as a webhook does,
 * until it is killed. Each ID whose claim answered true (what a 200 waits for) is printed on its own line
 * at once: a write to a pipe is synchronous on Linux, so the parent knows every ID answered before the
 * SIGKILL. "ready" is printed once the DIR is open; a refusal prints the error's code and exits 2.
 */
import { randomUUID } from 'node:crypto';
import { openStateDir } from '../src/state/index.js';

const dir = process.argv[2]!;
const LISTENER = 'wh_crash';

try {
  const state = await openStateDir(dir, { logger: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write('ready\n');
  const { eventStore, runner, clock } = state.deps;
  const worker = async (): Promise<void> => {
    for (;;) {
      const eventId = randomUUID();
      const now = clock.now();
      if (await eventStore.claim(LISTENER, eventId, now)) {
        runner.run({ listenerId: LISTENER, eventId, context: { user: 'u-1' }, contextJson: '{"user":"u-1"}', at: now });
        process.stdout.write(`${eventId}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
} catch (error) {
  process.stdout.write(`refused ${(error as { code?: string }).code ?? 'UNKNOWN'} ${(error as Error).message}\n`);
  process.exit(2);
}
