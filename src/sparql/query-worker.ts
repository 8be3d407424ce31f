// **Query worker** (worker thread entry): evaluates one query at a time, where the main thread can cut it off hard.
import { parentPort } from 'node:worker_threads';
import { type CrawlState, openState } from '../state/open-state.ts';
import { type Evaluation, engine, evaluate } from './evaluate.ts';
import type { ToWorker } from './worker-protocol.ts';
import { encodeError } from './query-errors.ts';

const port = parentPort;
if (port === null) throw new Error('query-worker.ts runs as a worker thread (see worker-pool.ts).');

let states: CrawlState[] = [];
let current: Evaluation | null = null;

/**
 * How long a closed query may keep using the store before its handles are closed anyway (ms): the engine's calls in
 * flight are point reads and size estimates, which take a few ms.
 */
const SETTLE_MS = 2_000;

/**
 * Ends the current query: its iterators stop, and once the engine's calls in flight have returned (bounded by
 * {@link SETTLE_MS}) the store handles (shared with the main thread) are closed. A call still running when they
 * close fails with "Database is not open", outside any query: nothing would be left to catch it.
 */
async function finish(): Promise<void> {
  const ending = current;
  current = null;
  ending?.close();
  if (ending !== null) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ending.settled(), new Promise((resolve) => { timer = setTimeout(resolve, SETTLE_MS); })]);
    clearTimeout(timer);
  }
  const open = states;
  states = [];
  for (const s of open) await s.close();
}

async function handle(msg: ToWorker): Promise<void> {
  try {
    if (msg.t === 'run') {
      // The store is opened per query: LevelDB's handle is shared with the main thread (multithreading), so this
      // is cheap and sees everything committed so far.
      for (const dir of msg.dirs) states.push(await openState(dir, { index: false })); // the main thread's handles index
      current = await evaluate({ states, plan: msg.plan }, msg.sparql, msg.options);
      port?.postMessage({ t: 'head', head: current.head });
      if (current.head.kind === 'boolean') await finish();
    } else if (msg.t === 'pull') {
      if (current === null) return;
      const batch = await current.next(msg.max);
      port?.postMessage({ t: 'batch', ...batch });
      if (batch.done) await finish();
    } else {
      await finish();
      port?.postMessage({ t: 'closed' });
    }
  } catch (err) {
    await finish().catch(() => {});
    port?.postMessage({ t: 'error', error: encodeError(err) });
  }
}

let queue = Promise.resolve();
port.on('message', (msg: ToWorker) => {
  queue = queue.then(() => handle(msg));
});
engine(); // load Comunica before saying ready: the first query's time limit then counts only its own work
port.postMessage({ t: 'ready' });
