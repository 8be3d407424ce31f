// **virtuosoLoad** loads an N-Quads/N-Triples file into a fresh Debian Virtuoso with its bulk loader (ld_dir +
// rdf_loader_run) and returns the CPU the virtuoso-t process spent on it, read from /proc (all its threads): the
// anchor beside rdfscout's own store in bench/store.ts --virtuoso.
import { execFile } from 'node:child_process';
import { copyFile, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { ISQL, startVirtuoso } from '../../test/helpers/virtuoso-server.ts';

/** What the bulk load cost Virtuoso. */
export interface VirtuosoLoad {
  /** Quads the load added (all graphs, less those of Virtuoso's system graphs before it). */
  quads: number;
  /** CPU ms of virtuoso-t during `rdf_loader_run()`. */
  loadCpuMs: number;
  /** CPU ms of virtuoso-t during the checkpoint that follows (the load made durable). */
  checkpointCpuMs: number;
  wallMs: number;
}

/** CPU ms (user + system, every thread) of process `pid` so far, from /proc/PID/stat (100 ticks a second). */
async function processCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Loads `file` (`.nq`: each quad into its graph; `.nt`: into `graph`) into a Virtuoso started for it, stopped after.
 * `graph` is also where Virtuoso puts lines of an `.nq` file without a graph.
 */
export async function virtuosoLoad(file: string, graph = 'http://bench.example/default'): Promise<VirtuosoLoad> {
  const server = await startVirtuoso();
  try {
    const countAll = async (): Promise<number> => {
      const out = await server.sql('SPARQL SELECT COUNT(*) WHERE { GRAPH ?g { ?s ?p ?o } };');
      return Number(/^\s*(\d+)\s*$/m.exec(out)?.[1] ?? Number.NaN);
    };
    const before = await countAll(); // Virtuoso's own system graphs
    await copyFile(file, join(server.dir, basename(file)));
    await server.sql(`ld_dir('${server.dir}', '${basename(file)}', '${graph}');`);
    const c0 = await processCpuMs(server.pid);
    const t0 = performance.now();
    // The helper's sql() gives a statement 30 s, too little for a million quads on a loaded machine.
    await promisify(execFile)(ISQL, [`127.0.0.1:${server.sqlPort}`, 'dba', 'dba', 'exec=rdf_loader_run();'], { timeout: 1_800_000 });
    const c1 = await processCpuMs(server.pid);
    await server.sql('checkpoint;');
    const c2 = await processCpuMs(server.pid);
    const wallMs = performance.now() - t0;
    const errors = await server.sql('SELECT ll_file, ll_error FROM DB.DBA.load_list WHERE ll_error IS NOT NULL;');
    if (/\b\d+ Rows\./.test(errors) && !/\b0 Rows\./.test(errors)) throw new Error(`Virtuoso's bulk loader failed: ${errors}`);
    return { quads: (await countAll()) - before, loadCpuMs: c1 - c0, checkpointCpuMs: c2 - c1, wallMs };
  } finally {
    await server.stop();
  }
}
