/**
 * Loaded with `node --import` into a process the run-wall bench measures: at exit it writes the process's
 * own resource usage (CPU of every thread, peak resident memory) to the file named by AC_BENCH_RUSAGE_OUT.
 * getrusage(RUSAGE_SELF) is what /usr/bin/time reports, without depending on GNU time being installed.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.AC_BENCH_RUSAGE_OUT;

if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    // maxRSS is in KiB; CPU times in microseconds.
    writeFileSync(out, JSON.stringify({ userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, maxRssKiB: usage.maxRSS }));
  });
}
