// **Worker pool**: query workers (worker threads with a heap cap), reused between queries, terminated to stop one hard.
import { Worker } from 'node:worker_threads';
import { RdfscoutError } from '../errors.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

/**
 * Heap granted to the engine itself on top of a query's cap: Comunica, loaded, takes ~40 MB of heap in a worker
 * (measured on Node 24); the rest is headroom so that a cap of N MB lets the query itself use about N MB.
 */
const ENGINE_HEAP_MB = 96;
/** Idle workers kept per memory cap (each holds a loaded Comunica, ~80 MB RSS). */
const MAX_IDLE = 2;

/** One worker thread running query-worker.ts, with a mailbox that fails when the worker dies. */
export class QueryWorker {
  readonly capMb: number;
  readonly #worker: Worker;
  readonly #inbox: FromWorker[] = [];
  readonly #waiting: Array<{ resolve(m: FromWorker): void; reject(e: unknown): void }> = [];
  #death: RdfscoutError | null = null;
  /** Set before terminate(): the error the current query ends with (e.g. its timeout). */
  #killReason: RdfscoutError | null = null;
  /** Resolves once the engine is loaded; rejects if the worker dies first. */
  readonly ready: Promise<void>;

  constructor(capMb: number) {
    this.capMb = capMb;
    this.#worker = new Worker(new URL(`./query-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: capMb + ENGINE_HEAP_MB },
    });
    this.ready = this.receive().then((m) => {
      if (m.t !== 'ready') throw new RdfscoutError('RDFSCOUT_INTERNAL', `Query worker said ${m.t} before ready.`);
    });
    this.ready.catch(() => {});
    this.#worker.on('message', (m: FromWorker) => this.#deliver(m));
    this.#worker.on('error', (err: Error & { code?: string }) => this.#die(err));
    this.#worker.on('exit', (code) => this.#die(new Error(`exit code ${code}`)));
  }

  get alive(): boolean {
    return this.#death === null;
  }

  post(msg: ToWorker): void {
    this.#worker.postMessage(msg);
  }

  /** The next message (callers waiting at once get the messages in turn); rejects with the reason once the worker is dead. */
  receive(): Promise<FromWorker> {
    const m = this.#inbox.shift();
    if (m !== undefined) return Promise.resolve(m);
    if (this.#death) return Promise.reject(this.#death);
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
    });
  }

  /** Stops the worker at once, whatever it is doing; pending and later `receive`s reject with `reason`. */
  kill(reason: RdfscoutError): void {
    if (this.#death) return;
    this.#killReason = reason;
    this.#die(reason);
    void this.#worker.terminate();
  }

  /** Lets the process exit while this worker is idle (or not, while it works). */
  setBusy(busy: boolean): void {
    if (busy) this.#worker.ref();
    else this.#worker.unref();
  }

  #deliver(m: FromWorker): void {
    const w = this.#waiting.shift();
    if (w) w.resolve(m);
    else this.#inbox.push(m);
  }

  #die(err: Error & { code?: string }): void {
    if (this.#death) return;
    this.#death =
      this.#killReason ??
      (err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new RdfscoutError('RDFSCOUT_QUERY_MEMORY', `The query needed more than its memory cap of ${this.capMb} MB (--max-query-memory) and was stopped. Narrow it (LIMIT, more specific patterns) or raise the cap.`)
        : // not the query's fault: an internal error (HTTP 500), and the next query gets a fresh worker
          new RdfscoutError('RDFSCOUT_INTERNAL', `The query worker stopped unexpectedly (an internal error; try the query again): ${err.message}`, { cause: err }));
    for (const w of this.#waiting.splice(0)) w.reject(this.#death);
  }
}

const idle = new Map<number, QueryWorker[]>();
const warm = new Map<number, number>();
/** A warm worker still loading, per cap: a query arriving meanwhile takes it rather than loading a second one. */
const loading = new Map<number, QueryWorker>();

/** A ready worker whose heap is capped at `capMb` (+ {@link ENGINE_HEAP_MB}): an idle one, or a new one. */
export async function acquireWorker(capMb: number): Promise<QueryWorker> {
  const list = idle.get(capMb) ?? [];
  for (let w = list.shift(); w !== undefined; w = list.shift()) {
    if (!w.alive) continue;
    w.setBusy(true);
    return w;
  }
  const pending = loading.get(capMb);
  loading.delete(capMb);
  const fresh = pending ?? new QueryWorker(capMb);
  await fresh.ready;
  fresh.setBusy(true);
  return fresh;
}

/** Gives a worker back after a query that ended normally; a dead one is dropped (and replaced if kept warm). */
export function releaseWorker(w: QueryWorker): void {
  if (!w.alive) {
    replace(w.capMb);
    return;
  }
  const list = idle.get(w.capMb) ?? [];
  if (list.length >= MAX_IDLE) {
    w.kill(new RdfscoutError('RDFSCOUT_INTERNAL', 'Surplus idle query worker.'));
    return;
  }
  w.setBusy(false);
  list.push(w);
  idle.set(w.capMb, list);
}

/**
 * Keeps one loaded worker for `capMb` ready (an endpoint does, so that no query waits seconds for Comunica to
 * load, even after one was killed). `ready` resolves once the first one is loaded; `stop` stops keeping it.
 */
export function keepWarm(capMb: number): { ready: Promise<void>; stop(): void } {
  warm.set(capMb, (warm.get(capMb) ?? 0) + 1);
  replace(capMb);
  const pending = loading.get(capMb);
  const ready = pending ? pending.ready.catch(() => {}) : Promise.resolve();
  return { ready, stop: () => warm.set(capMb, Math.max(0, (warm.get(capMb) ?? 1) - 1)) };
}

function replace(capMb: number): void {
  if ((warm.get(capMb) ?? 0) === 0) return;
  const list = idle.get(capMb) ?? [];
  if (list.some((w) => w.alive) || loading.has(capMb)) return;
  const w = new QueryWorker(capMb);
  w.setBusy(false);
  loading.set(capMb, w);
  const settle = (): boolean => {
    const unclaimed = loading.get(capMb) === w;
    if (unclaimed) loading.delete(capMb);
    return unclaimed;
  };
  w.ready.then(
    () => {
      if (settle()) releaseWorker(w);
    },
    () => settle(),
  );
}
