// **alloc-count**, preloaded (`--import`) into a benchmark worker by bench/throughput.ts --alloc-count: counts the bytes
// the process allocates on V8's heap from its start to its exit, exactly rather than sampled: every garbage collection's
// used heap before it, less the used heap after the one before (node:v8's GCProfiler), plus what was allocated after
// the last one. Writes `{ bytes, gcs, pauseMs, byType }` (pauseMs: the GCs' pauses of the main thread, summed; byType: count and ms per GC type) to the file named by RDFSCOUT_ALLOC_COUNT. Cheap (a few hundred GCs a crawl),
// so the CPU figures of a run with it stay comparable with each other, though not with runs without it.
import { writeFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';

interface GcStat {
  gcType: string;
  /** The pause on the main thread, µs. */
  cost: number;
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

const file = process.env.RDFSCOUT_ALLOC_COUNT;
if (file !== undefined && file !== '') {
  const start = getHeapStatistics().used_heap_size;
  const profiler = new GCProfiler();
  profiler.start();
  process.on('exit', () => {
    const stats = ((profiler.stop() as { statistics?: GcStat[] } | undefined)?.statistics ?? []) as GcStat[];
    let bytes = 0;
    let pauseUs = 0;
    let after = start;
    const byType: Record<string, { n: number; ms: number }> = {};
    for (const s of stats) {
      pauseUs += s.cost;
      const t = (byType[s.gcType] ??= { n: 0, ms: 0 });
      t.n++;
      t.ms += s.cost / 1000;
      bytes += s.beforeGC.heapStatistics.usedHeapSize - after;
      after = s.afterGC.heapStatistics.usedHeapSize;
    }
    bytes += getHeapStatistics().used_heap_size - after;
    writeFileSync(file, JSON.stringify({ bytes, gcs: stats.length, pauseMs: pauseUs / 1000, byType }));
  });
}
