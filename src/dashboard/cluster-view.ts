// **ClusterView**: the whole distributed crawl's progress for the dashboard (in `--redis` mode), polled from
// a source the crawl command wires to Redis (the dashboard only reads its types).
import type { SharedStatus as ClusterStatus } from '../distributed/redis/crawl-registry.ts';

/** One worker of a distributed crawl and the whole crawl, as the shared registry counts them. */
export type { SharedStatus as ClusterStatus } from '../distributed/redis/crawl-registry.ts';

/** Reads the shared progress (one round trip to Redis); may reject while Redis is away. */
export type ClusterSource = () => Promise<ClusterStatus>;

/** `/api/cluster`: the last status read, when it was read, and the last error (Redis away), or null in one process. */
export interface ClusterSnapshot {
  status: ClusterStatus | null;
  /** Epoch ms of the read that gave `status`. */
  at: number | null;
  error: string | null;
}

/**
 * Keeps the last shared status: `refresh()` starts a read unless one is under way (a slow Redis never piles up
 * reads), so the dashboard's 1 Hz tick costs at most one read a second.
 */
export class ClusterView {
  readonly #source: ClusterSource;
  readonly #now: () => number;
  #busy = false;
  #snapshot: ClusterSnapshot = { status: null, at: null, error: null };

  constructor(source: ClusterSource, now: () => number = Date.now) {
    this.#source = source;
    this.#now = now;
  }

  get snapshot(): ClusterSnapshot {
    return this.#snapshot;
  }

  /** Starts one read; resolves when it is done (callers on a timer need not wait). */
  async refresh(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const status = await this.#source();
      this.#snapshot = { status, at: this.#now(), error: null };
    } catch (err) {
      this.#snapshot = { ...this.#snapshot, error: (err as Error).message };
    } finally {
      this.#busy = false;
    }
  }
}
