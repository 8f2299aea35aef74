/**
 * vitest's JUnit reporter with every skip's reason: its own writes a bare `<skipped/>` only for a test
 * skipped at declaration, and nothing at all for one skipped inside its body (`ctx.skip`, which
 * `skipUnless` uses). This one writes `<skipped message="<reason>"/>` for both, and counts both in the
 * suite's `skipped`. .ci/run turns it on with AC_JUNIT_FILE (vitest.config.ts).
 */
import { JUnitReporter } from 'vitest/reporters';

type Task = Parameters<JUnitReporter['writeTasks']>[0][number];

function xmlAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

const isSkipped = (task: Task): boolean => task.mode === 'skip' || task.mode === 'todo' || task.result?.state === 'skip';

export default class JUnitWithSkipReasons extends JUnitReporter {
  override async onTestRunEnd(...args: Parameters<JUnitReporter['onTestRunEnd']>): Promise<void> {
    // A test skipped in its body ran with mode "run": mark it skipped so the suite's count includes it.
    for (const module of args[0]) markRuntimeSkips((module as unknown as { task: { tasks: Task[] } }).task.tasks);
    await super.onTestRunEnd(...args);
  }

  override async writeTasks(tasks: Task[], filename: string): Promise<void> {
    // vitest's logger is private in its types: the one line it writes for a skip is swapped as it passes.
    const logger = (this as unknown as { logger: { log(text: string): Promise<void> } }).logger;
    for (const task of tasks) {
      const log = logger.log.bind(logger);
      const reason = (task.result as { note?: string } | undefined)?.note ?? (task.mode === 'todo' ? 'todo' : 'no reason given');
      logger.log = async (text: string) => log(text === '<skipped/>' && isSkipped(task) ? `<skipped message="${xmlAttribute(reason)}"/>` : text);
      try {
        await super.writeTasks([task], filename);
      } finally {
        logger.log = log;
      }
    }
  }
}

function markRuntimeSkips(tasks: ReadonlyArray<Task | { type: string; tasks?: unknown }>): void {
  for (const task of tasks as Task[]) {
    if (task.type === 'suite' && 'tasks' in task) markRuntimeSkips((task as unknown as { tasks: Task[] }).tasks);
    else if (task.result?.state === 'skip' && task.mode === 'run') task.mode = 'skip';
  }
}
