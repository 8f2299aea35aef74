/**
 * testcontainers' defaults, replaced: the default wait strategy probes exposed ports (from the engine's
 * gateway address, and with a shell inside the container, which a minimal image lacks), and the default pull
 * policy pulls a missing image. The harness waits for the profile file instead, and never pulls.
 */
import type { ImagePullPolicy, WaitStrategy } from 'testcontainers';

class NoWaitStrategy implements WaitStrategy {
  private timeoutMs = 0;
  private timeoutSet = false;

  async waitUntilReady(): Promise<void> {
    // Readiness is the profile file (profile-wait.ts), bounded by --image-startup-timeout.
  }

  withStartupTimeout(startupTimeoutMs: number): this {
    this.timeoutMs = startupTimeoutMs;
    this.timeoutSet = true;
    return this;
  }

  isStartupTimeoutSet(): boolean {
    return this.timeoutSet;
  }

  getStartupTimeout(): number {
    return this.timeoutMs;
  }
}

export const NO_WAIT: WaitStrategy = new NoWaitStrategy();

export const NO_PULL: ImagePullPolicy = { shouldPull: () => false };
