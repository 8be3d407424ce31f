// **CrawlGraph** is the directed graph of pages and links seen so far, with integer node ids (topical §2, §4).

/** Serialised graph: URLs by id, and each fetched page's out-links as base64 Int32 arrays. */
export interface CrawlGraphJson {
  urls: string[];
  /** `[pageId, base64(Int32Array of target ids)]`, in the order the pages were observed. */
  out: [number, string][];
}

const EMPTY = new Int32Array(0);

/**
 * The crawl graph G of topical §2 as it grows: every URL seen (fetched page or discovered link target) is a node
 * with a dense integer id (0, 1, 2, … in discovery order); a fetched page's distinct out-links are an `Int32Array`.
 * Memory: one string and one map entry per node, 4 bytes per edge. Pages observed twice keep their latest links.
 */
export class CrawlGraph {
  readonly #ids = new Map<string, number>();
  readonly #urls: string[] = [];
  /** Out-links by node id; `undefined` for nodes not fetched (dangling). */
  readonly #out: (Int32Array | undefined)[] = [];
  #edges = 0;

  /** Number of nodes. */
  get size(): number {
    return this.#urls.length;
  }

  /** Number of edges (distinct page → target pairs, self-links excluded). */
  get edgeCount(): number {
    return this.#edges;
  }

  /** The id of a URL, creating the node when new. */
  ensure(url: string): number {
    let id = this.#ids.get(url);
    if (id === undefined) {
      id = this.#urls.length;
      this.#ids.set(url, id);
      this.#urls.push(url);
      this.#out.push(undefined);
    }
    return id;
  }

  /** The id of a known URL, or undefined. */
  idOf(url: string): number | undefined {
    return this.#ids.get(url);
  }

  urlOf(id: number): string {
    const url = this.#urls[id];
    if (url === undefined) throw new RangeError(`No node ${id} in a graph of ${this.size} nodes.`);
    return url;
  }

  /** Records a fetched page and its links (duplicates and self-links dropped). Returns the page's id. */
  setPage(url: string, targets: Iterable<string>): number {
    const id = this.ensure(url);
    const seen = new Set<number>();
    for (const t of targets) {
      const tid = this.ensure(t);
      if (tid !== id) seen.add(tid);
    }
    this.#edges -= this.#out[id]?.length ?? 0;
    this.#out[id] = Int32Array.from(seen);
    this.#edges += seen.size;
    return id;
  }

  /** Out-links of a node (empty for a node not fetched). */
  outLinks(id: number): Int32Array {
    return this.#out[id] ?? EMPTY;
  }

  /** Whether the node's page was observed (it has an out-list, possibly empty). */
  isPage(id: number): boolean {
    return this.#out[id] !== undefined;
  }

  toJSON(): CrawlGraphJson {
    const out: [number, string][] = [];
    for (let id = 0; id < this.#out.length; id++) {
      const links = this.#out[id];
      if (links !== undefined) out.push([id, encodeInt32(links)]);
    }
    return { urls: [...this.#urls], out };
  }

  static fromJSON(json: CrawlGraphJson | null | undefined): CrawlGraph {
    const g = new CrawlGraph();
    if (!json) return g;
    for (const url of json.urls) g.ensure(url);
    for (const [id, b64] of json.out) {
      const links = decodeInt32(b64);
      g.#out[id] = links;
      g.#edges += links.length;
    }
    return g;
  }
}

/** Base64 of a typed array's bytes (compact JSON for snapshots). */
export function encodeFloat64(a: Float64Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

export function decodeFloat64(b64: string): Float64Array {
  const buf = Buffer.from(b64, 'base64');
  return new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

function encodeInt32(a: Int32Array): string {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
}

function decodeInt32(b64: string): Int32Array {
  const buf = Buffer.from(b64, 'base64');
  return new Int32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}
