/** Engine defaults the CLI shows and the fault runner shares (no imports: the CLI reads it before the engine loads). */

/** Checks in flight at once when `--concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 8;
