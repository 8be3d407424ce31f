// **CPU time** of this process, all its threads (user + system): what the benchmarks compare, since wall time on a
// shared machine depends on everything else running.

/** A mark to measure from. */
export type CpuMark = NodeJS.CpuUsage;

/** Now, as a mark for {@link cpuMsSince}. */
export function cpuMark(): CpuMark {
  return process.cpuUsage();
}

/** CPU milliseconds (user + system, every thread of the process) since `mark`. */
export function cpuMsSince(mark: CpuMark): number {
  const c = process.cpuUsage(mark);
  return (c.user + c.system) / 1000;
}


/** This process's peak resident set so far, MB (one decimal). */
export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
}
