/**
 * Delivers engine events to reporters in order, one at a time, without making the vitest bridge wait.
 * A reporter that throws does not stop the run; the first such error is rethrown by flush().
 */
import type { EngineReporter, ReporterEvent } from './types.js';

type Method = ReporterEvent;
export type Arg<M extends Method> = Parameters<NonNullable<EngineReporter[M]>>[0];

export class Emitter {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(private readonly reporters: readonly EngineReporter[]) {}

  emit<M extends Method>(method: M, arg: Arg<M>): void {
    this.chain = this.chain.then(async () => {
      for (const reporter of this.reporters) {
        const handler = reporter[method] as ((value: Arg<M>) => unknown) | undefined;
        try {
          await handler?.call(reporter, arg);
        } catch (error) {
          this.failure ??= error;
        }
      }
    });
  }

  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }
}
