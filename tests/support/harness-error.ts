import { isHarnessError, type HarnessError } from '../../src/errors.js';

/**
 * Awaits the action, which must fail with a HarnessError, and returns that error for the test to inspect.
 * Anything else it throws is rethrown as is (its own stack says more than a wrapper would); success fails.
 */
export async function harnessError(action: Promise<unknown> | (() => Promise<unknown>)): Promise<HarnessError> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    if (isHarnessError(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessError, the call succeeded');
}
