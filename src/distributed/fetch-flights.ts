// **FetchFlights**: a worker's fetches in flight under PLD leases — their tokens, what their release will carry, and its outcome.
import { RdfscoutError } from '../errors.ts';
import type { FetchNote, FrontierEntry, ReleaseOutcome } from '../frontier/types.ts';

/** One fetch handed out under a lease, until its release is answered. */
export interface Flight {
  token: string;
  /** When its lease was last granted or renewed, at the latest (`performance.now()` when the call was sent). */
  since: number;
  /** `complete()` or `retry()` was called: it is finished once its transaction commits. */
  finishing: boolean;
  note: FetchNote;
  outcome?: Promise<ReleaseOutcome>;
  /** The release, committed and not sent yet (`deferRelease`). */
  send?: () => void;
  /** Its transaction committed: the release is sent or waits to be (see `FetchFlights.releasing`). */
  committed?: boolean;
}

/** The fetches this worker has in flight, by URL. */
export class FetchFlights {
  readonly #flights = new Map<string, Flight>();
  /** Releases sent, by URL, until `outcome()` reads them (a crawl's worker reads each). */
  readonly #outcomes = new Map<string, Promise<ReleaseOutcome>>();
  #releasing = 0;

  get size(): number {
    return this.#flights.size;
  }

  /**
   * Fetches whose transaction committed, with their release sent or about to be: their slot is as good as free, so
   * the next claim may ride with the release.
   */
  get releasing(): number {
    return this.#releasing;
  }

  /** The transaction of `url`'s fetch committed: its release follows. */
  committed(url: string): void {
    const f = this.#flights.get(url);
    if (f === undefined || f.committed === true) return;
    f.committed = true;
    this.#releasing++;
  }

  /** A claimed entry was handed out: it is in flight under `token`, granted at `since`. */
  start(url: string, token: string, since: number): void {
    this.#flights.set(url, { token, since, finishing: false, note: {} });
  }

  get(url: string): Flight | undefined {
    return this.#flights.get(url);
  }

  /** The fetch's release was answered (or it was given back): it is no longer in flight. */
  end(url: string): void {
    if (this.#flights.get(url)?.committed === true) this.#releasing--;
    this.#flights.delete(url);
  }

  /** Leases of the fetches in flight. */
  tokens(): string[] {
    return [...this.#flights.values()].map((f) => f.token);
  }

  /** `complete()`/`retry()` of `entry` (`what`): it must be in flight and not finished already. */
  finishing(entry: FrontierEntry, what: string): Flight {
    const f = this.#flights.get(entry.url);
    if (f === undefined || f.finishing) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Frontier.${what}(${entry.url}): the URL is not in flight; only entries from next() can be finished, once.`);
    }
    f.finishing = true;
    return f;
  }

  /** Adds to what the release of `url` will carry (the longest wait asked for wins). */
  note(url: string, note: FetchNote): void {
    const f = this.#flights.get(url);
    if (f !== undefined) f.note = { ...f.note, ...note, waitMs: Math.max(f.note.waitMs ?? 0, note.waitMs ?? 0) };
  }

  /** The release of `url` was sent; `keep`: its outcome waits for `outcome()` (a crawl's worker reads each). */
  sent(url: string, outcome: Promise<ReleaseOutcome>, keep: boolean): void {
    const f = this.#flights.get(url);
    if (f !== undefined) f.outcome = outcome;
    outcome.catch(() => {});
    if (keep) this.#outcomes.set(url, outcome);
  }

  /** The outcome of the release of `url`, sending it first if it was deferred. */
  async outcome(url: string): Promise<ReleaseOutcome> {
    const f = this.#flights.get(url);
    const send = f?.send;
    if (f !== undefined && send !== undefined) {
      f.send = undefined;
      send();
    }
    const outcome = this.#outcomes.get(url);
    if (outcome === undefined) throw new RdfscoutError('RDFSCOUT_INTERNAL', `No release was sent for ${url}: commit its transaction first.`);
    this.#outcomes.delete(url);
    return outcome;
  }
}
