// **cpu-on-exit**, preloaded with NODE_OPTIONS=--import=…, writes the process's CPU time and peak RSS to $RDFSCOUT_CPU_FILE when it exits (for CLI child processes of the benchmarks).
import { writeFileSync } from 'node:fs';

const file = process.env.RDFSCOUT_CPU_FILE;
if (file) {
  // CPU counters survive the CLI's execve into itself (bin/rdfscout.js), so this counts the whole process.
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, `${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssMb: Math.round(u.maxRSS / 102.4) / 10 })}\n`);
  });
}
