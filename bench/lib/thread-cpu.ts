// **threadCpu** reads this process's CPU per thread name from /proc (Linux), so a benchmark can tell the JavaScript
// thread from LevelDB's compaction, libuv's pool and V8's helpers. Elsewhere it returns an empty table.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms (user + system) per thread name, e.g. `{ node: 8000, 'V8 DefaultWorke': 600, 'libuv-worker': 900 }`. */
export function threadCpuMs(): Record<string, number> {
  const out: Record<string, number> = {};
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the parenthesised name: state is field 3; utime and stime are fields 14 and 15 (clock ticks, 100 Hz).
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * 10;
      out[name] = (out[name] ?? 0) + ms;
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}
