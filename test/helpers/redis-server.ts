// A real Debian redis-server for the tests: a free port on 127.0.0.1, a temp folder with AOF on, stopped by PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port.ts';
import { makeTempDir } from './temp-dir.ts';
import { exitOf, within } from './until.ts';

/** Debian's server (package `redis-server`; `.ci/run` installs it when missing). */
const REDIS_SERVER = process.env.RDFSCOUT_REDIS_SERVER ?? '/usr/bin/redis-server';

/** A running redis-server started by a test. */
export interface RedisTestServer {
  /** `redis://[:password@]127.0.0.1:PORT` */
  url: string;
  port: number;
  /** The server's working folder: AOF files live here (`appendonly yes`, `appendfsync always`). */
  dir: string;
  /** The PID of the running server (changes on `restart`). */
  pid(): number;
  /** Stops the server by PID (SIGTERM), waits for it to exit and deletes its folder. */
  stop(): Promise<void>;
  /** Kills the server by PID with SIGKILL (as a crash would); its folder and AOF stay for `restart`. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and folder: it reloads its AOF. */
  restart(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface RedisTestServerOptions {
  /** `requirepass`: the server then refuses clients without it. Default: none. */
  password?: string;
  /** AOF on (the default, `appendfsync always`: nothing acknowledged is lost to a SIGKILL) or off (benchmarks). */
  appendOnly?: boolean;
}

/** Starts redis-server on a free port with a fresh temp folder (retrying on another port if the port was taken). */
export async function startRedisServer(options: RedisTestServerOptions = {}): Promise<RedisTestServer> {
  const { dir, remove } = await makeTempDir('redis');
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      let child = await spawnRedis(port, dir, options);
      const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
      return {
        url: `redis://${auth}127.0.0.1:${port}`,
        port,
        dir,
        pid: () => child.pid ?? -1,
        async stop() {
          await stopChild(child, 'SIGTERM');
          await remove();
        },
        async kill() {
          await stopChild(child, 'SIGKILL');
        },
        async restart() {
          child = await spawnRedis(port, dir, options);
        },
      };
    } catch (err) {
      lastError = err;
    }
  }
  await remove();
  throw new Error(`redis-server did not start (${REDIS_SERVER}): ${String(lastError)}`);
}

/** Spawns the server in the foreground and resolves once it logs that it accepts connections. */
function spawnRedis(port: number, dir: string, options: RedisTestServerOptions): Promise<ChildProcess> {
  const aof = options.appendOnly ?? true;
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no',
    '--appendonly', aof ? 'yes' : 'no', '--appendfsync', 'always', '--save', '', '--logfile', '', '--protected-mode', 'no',
  ];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise<ChildProcess>((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume(); // keep draining the log so the server never blocks on a full pipe
        child.off('exit', onExit);
        resolve(child);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`redis-server exited with ${code}: ${log.slice(-500)}`));
    child.once('error', reject);
    child.once('exit', onExit);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
  });
  return within(`redis-server on port ${port} to accept connections`, ready).catch((err: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); // never left running unready
    throw err;
  });
}

/** Sends a signal to the child by its PID and waits until it has exited. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = exitOf(child, `redis-server (pid ${child.pid}) to exit on ${signal}`);
  process.kill(child.pid, signal);
  await exited;
}
