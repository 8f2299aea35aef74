/**
 * Loaded with `node --import` into a process the run-wall bench measures: at exit it writes the process's
 * own resource usage (CPU of every thread, peak resident memory) to AC_BENCH_RUSAGE_OUT.<pid>.
 * getrusage(RUSAGE_SELF) is what /usr/bin/time reports, without depending on GNU time being installed.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.AC_BENCH_RUSAGE_OUT;

if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    // maxRSS is in KiB; CPU times in microseconds. One file per process: `run` forks its supervised child
    // (src/cli/supervisor.ts), which inherits this --import; the bench adds their CPU and takes the
    // largest peak (what GNU time reports for a process tree), instead of the supervisor's alone.
    writeFileSync(`${out}.${process.pid}`, JSON.stringify({ userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, maxRssKiB: usage.maxRSS }));
  });
}
