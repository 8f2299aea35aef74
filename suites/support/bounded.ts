/** Many requests, a bounded number in flight: load a check needs without overrunning the target. */

/** Runs `task(i)` for i in [0, count) with at most `limit` running at once; results in order. */
export async function boundedAll<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}
