// **RequestLog** records every request the simulated web answers: its PLD, start and end time, and the PLD's requests in flight.

/** One request as the server saw it. Times are epoch ms with sub-ms precision (`performance.timeOrigin + now()`). */
export interface RequestLogEntry {
  url: string;
  host: string;
  /** The site's PLD (`(unknown)` for hosts the web does not know). */
  pld: string;
  /** When the request's headers arrived. */
  start: number;
  /** When the response was written (or the connection closed); `undefined` while it is in flight. */
  end?: number;
  /** HTTP status answered (0 until the response is sent). */
  status: number;
  /** The `Location` of a redirect, absolute. */
  location?: string;
  /** Requests to this PLD in flight when this one started, itself included. */
  inFlight: number;
}

/** Epoch ms, sub-ms precision, monotonic within the process. */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** An append-only log of requests with a per-PLD in-flight counter. */
export class RequestLog {
  #entries: RequestLogEntry[] = [];
  #inFlight = new Map<string, number>();
  readonly #clock: () => number;

  /** @param clock epoch ms; default {@link preciseNow} (tests may inject one). */
  constructor(clock: () => number = preciseNow) {
    this.#clock = clock;
  }

  /** Records the start of a request; returns its entry, to pass to {@link end}. */
  begin(url: string, host: string, pld: string): RequestLogEntry {
    const inFlight = (this.#inFlight.get(pld) ?? 0) + 1;
    this.#inFlight.set(pld, inFlight);
    const entry: RequestLogEntry = { url, host, pld, start: this.#clock(), status: 0, inFlight };
    this.#entries.push(entry);
    return entry;
  }

  /** Records the end of a request (once; later calls are ignored). */
  end(entry: RequestLogEntry, status: number, location?: string): void {
    if (entry.end !== undefined) return;
    entry.end = this.#clock();
    entry.status = status;
    if (location !== undefined) entry.location = location;
    const n = (this.#inFlight.get(entry.pld) ?? 1) - 1;
    if (n > 0) this.#inFlight.set(entry.pld, n);
    else this.#inFlight.delete(entry.pld);
  }

  /** A copy of the entries, in the order the requests started. */
  entries(): RequestLogEntry[] {
    return this.#entries.map((e) => ({ ...e }));
  }

  /** Number of entries. */
  get size(): number {
    return this.#entries.length;
  }

  /** Forgets the entries (requests in flight are still counted). */
  clear(): void {
    this.#entries = [];
  }
}
