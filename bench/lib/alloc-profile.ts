// **alloc-profile**, preloaded (`--import`) into a benchmark worker by bench/throughput.ts --alloc-prof: samples the
// process's allocations from its start to its exit with V8's sampling heap profiler, the objects the GC collected
// included (Node's own --heap-prof keeps only what is still live at exit), and writes the profile to the file named
// by RDFSCOUT_ALLOC_PROF (read it with bench/lib/summarize-heap-profile.ts). Costs CPU: not for timed figures.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.RDFSCOUT_ALLOC_PROF;
if (file !== undefined && file !== '') {
  const session = new Session();
  session.connect();
  // One sample per 32 kB allocated on average (V8's default); each sample stands for its share of the bytes.
  session.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  process.on('exit', () => {
    // A session on the main thread answers synchronously, so the profile is written before the process ends.
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (err === null) writeFileSync(file, JSON.stringify(result.profile));
      else console.error(`alloc-profile: ${err.message}`);
    });
  });
}
