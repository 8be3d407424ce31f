// **MemoryFrontier** is the reference `Frontier`: the same contract as `LevelFrontier`, plain maps and arrays, no persistence.
import { RdfscoutError } from '../errors.ts';
import { hostOf, pldOf } from '../links/normalize-url.ts';
import type { Txn } from '../state/txn.ts';
import { RejudgingFrontier } from './similar-queued.ts';
import type { Frontier, FrontierEntry, FrontierIndexOptions, NewEntry, PldQueue } from './types.ts';

interface Queue {
  pld: string;
  /** Queued entries sorted by (priority, seq). */
  entries: FrontierEntry[];
  inFlight: number;
}

/** Orders entries by (priority, seq). */
function before(a: FrontierEntry, b: FrontierEntry): boolean {
  return a.priority < b.priority || (a.priority === b.priority && a.seq < b.seq);
}

/**
 * An in-memory `Frontier` for tests, simulations and as the executable statement of the contract. Writes given a
 * `Txn` take effect when it commits (`txn.onCommit`); URLs are reserved at once so that concurrent transactions do
 * not queue one URL twice. O(queue length) per operation: not for large crawls.
 */
export class MemoryFrontier extends RejudgingFrontier implements Frontier {
  readonly #now: () => number;
  /** URL → 'reserved' (staged, not committed) | 'queued' | 'done'. */
  readonly #seen = new Map<string, 'reserved' | 'queued' | 'done'>();
  readonly #queues = new Map<string, Queue>();
  readonly #inFlight = new Map<string, { finishing: boolean }>();
  #seq = 0;
  #done = 0;

  constructor(opts: { now?: () => number } & FrontierIndexOptions = {}) {
    super(opts);
    this.#now = opts.now ?? Date.now;
  }

  async add(entries: readonly NewEntry[], txn?: Txn): Promise<number> {
    const fresh: FrontierEntry[] = [];
    const moved: FrontierEntry[] = [];
    for (const e of entries) {
      if (!Number.isFinite(e.priority)) throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier priority must be a finite number, got ${e.priority} for ${e.url}`);
      const state = this.#seen.get(e.url);
      const pending = fresh.find((f) => f.url === e.url) ?? moved.find((f) => f.url === e.url);
      if (pending !== undefined) {
        if (e.priority < pending.priority) Object.assign(pending, e, { seq: pending.seq, pld: pending.pld, host: pending.host });
        continue;
      }
      if (state === undefined) {
        this.#seen.set(e.url, 'reserved');
        fresh.push(this.#entryOf(e, ++this.#seq));
      } else if (state === 'queued' && !this.#inFlight.has(e.url)) {
        const old = this.#find(e.url);
        if (old !== undefined && e.priority < old.priority) moved.push(this.#entryOf(e, old.seq));
      }
    }
    const apply = (): void => {
      for (const entry of fresh) {
        this.#seen.set(entry.url, 'queued');
        this.#insert(entry);
      }
      for (const entry of moved) {
        const q = this.#queue(entry.pld);
        const at = q.entries.findIndex((x) => x.url === entry.url);
        if (at < 0) continue; // handed out meanwhile
        q.entries.splice(at, 1);
        this.#insert(entry);
      }
    };
    if (txn === undefined) apply();
    else txn.onCommit(apply);
    return fresh.length;
  }

  next(pld: string, now?: number): FrontierEntry | null {
    const q = this.#queues.get(pld);
    if (q === undefined) return null;
    const time = now ?? this.#now();
    // Entries whose URL became done as an alias of another are dropped on the way.
    q.entries = q.entries.filter((e) => this.#seen.get(e.url) !== 'done');
    const i = q.entries.findIndex((e) => e.notBefore <= time);
    if (i < 0) return null;
    const [entry] = q.entries.splice(i, 1) as [FrontierEntry];
    q.inFlight++;
    this.#inFlight.set(entry.url, { finishing: false });
    this.handedOut(entry.url);
    return entry;
  }

  /** See `Frontier.take`: a URL done already is handed out again (an archive may hold it twice). */
  take(url: string, fallback: NewEntry): FrontierEntry {
    let entry = this.#find(url);
    if (entry !== undefined) {
      const q = this.#queue(entry.pld);
      q.entries.splice(q.entries.indexOf(entry), 1);
    } else {
      entry = this.#entryOf({ ...fallback, url }, ++this.#seq);
      if (!this.#seen.has(url)) this.#seen.set(url, 'queued');
    }
    this.#queue(entry.pld).inFlight++;
    this.#inFlight.set(url, { finishing: false });
    this.handedOut(url);
    return entry;
  }

  complete(entry: FrontierEntry, txn: Txn, aliases: readonly string[] = []): void {
    this.#claim(entry, 'complete');
    const urls = [entry.url, ...aliases.filter((a) => this.#seen.get(a) !== 'reserved')];
    txn.onCommit(() => {
      this.#inFlight.delete(entry.url);
      this.#queue(entry.pld).inFlight--;
      for (const url of urls) {
        if (this.#seen.get(url) === 'done') continue;
        this.#seen.set(url, 'done');
        this.#done++;
        const q = this.#queues.get(pldOf(url));
        if (q !== undefined && !this.#inFlight.has(url)) q.entries = q.entries.filter((e) => e.url !== url);
      }
    });
  }

  retry(entry: FrontierEntry, notBefore: number, txn: Txn): void {
    this.#claim(entry, 'retry');
    const again: FrontierEntry = { ...entry, attempts: entry.attempts + 1, notBefore, seq: ++this.#seq };
    txn.onCommit(() => {
      this.#inFlight.delete(entry.url);
      this.#queue(entry.pld).inFlight--;
      // Done meanwhile as another URL's alias: nothing left to retry.
      if (this.#seen.get(entry.url) === 'done') return;
      this.#insert(again);
      this.putBack(again);
    });
  }

  dueAt(pld: string): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const e of this.#queues.get(pld)?.entries ?? []) if (e.notBefore < earliest) earliest = e.notBefore;
    return earliest;
  }

  queues(): PldQueue[] {
    const out: PldQueue[] = [];
    for (const q of this.#queues.values()) {
      const view = this.queueOf(q.pld);
      if (view !== null) out.push(view);
    }
    return out;
  }

  queueOf(pld: string): PldQueue | null {
    const q = this.#queues.get(pld);
    if (q === undefined || q.entries.length + q.inFlight === 0) return null;
    const head = q.entries[0];
    return {
      pld: q.pld,
      queued: q.entries.length,
      inFlight: q.inFlight,
      headPriority: head?.priority ?? Number.POSITIVE_INFINITY,
      headSeq: head?.seq ?? Number.POSITIVE_INFINITY,
    };
  }

  async has(url: string): Promise<boolean> {
    return this.#seen.has(url);
  }

  size(): { queued: number; inFlight: number; done: number } {
    let queued = 0;
    for (const q of this.#queues.values()) queued += q.entries.length;
    return { queued, inFlight: this.#inFlight.size, done: this.#done };
  }

  /** Nothing is read in the background. */
  get loading(): boolean {
    return false;
  }

  async settled(): Promise<void> {}

  async *queued(): AsyncGenerator<FrontierEntry> {
    for (const q of this.#queues.values()) yield* q.entries.filter((e) => this.#seen.get(e.url) !== 'done');
  }

  #claim(entry: FrontierEntry, what: string): void {
    const f = this.#inFlight.get(entry.url);
    if (f === undefined || f.finishing) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier.${what}(${entry.url}): the URL is not in flight; only entries from next() can be finished, once.`);
    }
    f.finishing = true;
  }

  #entryOf(e: NewEntry, seq: number): FrontierEntry {
    return { ...e, pld: pldOf(e.url), host: hostOf(e.url), seq, attempts: 0, notBefore: 0 };
  }

  #find(url: string): FrontierEntry | undefined {
    return this.#queues.get(pldOf(url))?.entries.find((e) => e.url === url);
  }

  #queue(pld: string): Queue {
    let q = this.#queues.get(pld);
    if (q === undefined) {
      q = { pld, entries: [], inFlight: 0 };
      this.#queues.set(pld, q);
    }
    return q;
  }

  #insert(entry: FrontierEntry): void {
    const q = this.#queue(entry.pld);
    let i = q.entries.length;
    while (i > 0 && before(entry, q.entries[i - 1] as FrontierEntry)) i--;
    q.entries.splice(i, 0, entry);
  }
}
