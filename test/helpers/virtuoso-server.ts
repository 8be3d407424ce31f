// A real Debian Virtuoso (virtuoso-opensource 7.2) for the tests: temp folder, own virtuoso.ini, free ports, stopped by PID.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';
import { makeTempDir } from './temp-dir.ts';

/** Debian's server and SQL client (package `virtuoso-opensource`; `.ci/run` installs it when missing). */
const VIRTUOSO = '/usr/bin/virtuoso-t';
export const ISQL = '/usr/bin/isql-vt';

/** A running Virtuoso started by a test. */
export interface VirtuosoTestServer {
  /** `http://127.0.0.1:PORT`; SPARQL at `/sparql`, the Graph Store Protocol at `/sparql-graph-crud`. */
  origin: string;
  /** The SQL (isql) port. */
  sqlPort: number;
  dir: string;
  pid: number;
  /** Runs SQL as dba through isql-vt; returns its output. */
  sql(statement: string): Promise<string>;
  /** Stops the server by PID (SIGTERM, then SIGKILL after 20 s) and deletes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts Virtuoso with a fresh database in a temp folder (a new database takes a few seconds to build), then grants
 * SPARQL_UPDATE to the anonymous SPARQL user, so that `/sparql-graph-crud` accepts PUTs without authentication.
 */
export async function startVirtuoso(): Promise<VirtuosoTestServer> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const { dir, remove } = await makeTempDir('virtuoso');
    const [sqlPort, httpPort] = [await freePort(), await freePort()];
    try {
      await writeFile(join(dir, 'virtuoso.ini'), iniFile(dir, sqlPort, httpPort));
      const child = await spawnVirtuoso(dir);
      const sql = async (statement: string) => {
        const run = promisify(execFile);
        const { stdout } = await run(ISQL, [`127.0.0.1:${sqlPort}`, 'dba', 'dba', `exec=${statement}`], { timeout: 30_000 });
        return stdout;
      };
      await sql('GRANT SPARQL_UPDATE TO "SPARQL";');
      return {
        origin: `http://127.0.0.1:${httpPort}`,
        sqlPort,
        dir,
        pid: child.pid ?? -1,
        sql,
        async stop() {
          await stopChild(child);
          await remove();
        },
      };
    } catch (err) {
      lastError = err;
      await remove();
    }
  }
  throw new Error(`Virtuoso did not start (${VIRTUOSO}): ${String(lastError)}`);
}

/** A small virtuoso.ini: everything in `dir`, listening on 127.0.0.1 only. */
function iniFile(dir: string, sqlPort: number, httpPort: number): string {
  return `[Database]
DatabaseFile = ${dir}/virtuoso.db
ErrorLogFile = ${dir}/virtuoso.log
LockFile = ${dir}/virtuoso.lck
TransactionFile = ${dir}/virtuoso.trx
xa_persistent_file = ${dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = ${dir}/virtuoso-temp.db
TransactionFile = ${dir}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:${sqlPort}
DisableUnixSocket = 1
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., ${dir}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
ThreadsPerQuery = 1
[HTTPServer]
ServerPort = 127.0.0.1:${httpPort}
ServerRoot = ${dir}
ServerThreads = 4
MaxClientConnections = 4
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 60
`;
}

/** Spawns `virtuoso-t -f` in `dir` and resolves when it logs that both its SQL and HTTP servers are online. */
function spawnVirtuoso(dir: string): Promise<ChildProcess> {
  const child = spawn(VIRTUOSO, ['-f', '-c', join(dir, 'virtuoso.ini')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Virtuoso not online after 120 s: ${log.slice(-500)}`));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (/Server online at/.test(log)) {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.stdout?.off('data', onData).resume(); // keep draining the log, so the server never blocks on a full pipe
        child.stderr?.off('data', onData).resume();
        resolve(child);
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`Virtuoso exited with ${code}: ${log.slice(-500)}`));
    };
    child.once('exit', onExit);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  }, 20_000);
  await exited;
  clearTimeout(timer);
}
