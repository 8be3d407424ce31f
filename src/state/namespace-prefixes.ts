// **NamespacePrefixes** shortens the IRIs in quadstore's index keys: each namespace becomes a short id, kept in LevelDB.
import type { AbstractChainedBatch } from 'abstract-level';
import type { AnySublevel } from './txn.ts';

/** Marks a compacted IRI in a key: `\u0001<id>\u0001<local name>`. No IRI a parser accepts starts with it. */
const MARK = '\u0001';
const MARK_CODE = 1;

/** Options of {@link NamespacePrefixes}. */
export interface NamespacePrefixesOptions {
  /**
   * Whether this handle gives new namespaces ids (the crawl's own handle, which writes the indexes). False for a
   * handle that only reads (a query worker): it looks ids up and never adds one. Default: true.
   */
  assign?: boolean;
  /**
   * Namespaces given an id in all, at most; IRIs of later new namespaces are kept whole. Fixed by the first handle
   * that writes the dictionary (kept as `#max`); later values are ignored. Default: 1,000,000.
   */
  maxNamespaces?: number;
  /** Namespaces remembered in memory (both directions); past it the memory is cleared and refilled from LevelDB. Default: 100,000. */
  cacheSize?: number;
  /** Shortest namespace worth an id (shorter ones are kept whole). Default: 12 characters. */
  minNamespaceChars?: number;
}

/** A batch the ids are staged into (quadstore's chained batch over the root database). */
type Batch = AbstractChainedBatch<never, string, string>;

/**
 * The `prefixes` of quadstore (its `compactIri` / `expandTerm` hooks, applied to every named node of a key) backed
 * by a dictionary of namespaces: the part of an IRI up to its last `/` or `#` becomes a base-36 id, so
 * `http://xmlns.com/foaf/0.1/name` is written `\u0001a\u0001name` in each of the three index keys. Index keys are
 * most of a bulk load's cost, and LevelDB's cost grows with their bytes (measured:
 * -19% indexing CPU for keys ~3x shorter).
 *
 * Storage: sublevel `ns`, `n<namespace>` → id and `i<id>` → namespace, `#next` (the next id) and `#max`. An id is staged
 * ({@link stage}) into the batch of the first index keys that use it (CoveringQuadstore does it for every write),
 * so no key is ever durable before the ids it names: after a crash, ids that were given but not written are given
 * again, and no key uses them. Rules that keep reads and writes in step:
 * - a namespace with an id keeps it; its IRIs are always written compacted (ids are never dropped);
 * - an IRI of a namespace without an id is written whole, and its namespace gets one only on the writing handle,
 *   in the same synchronous step (so a namespace is never written both ways), or never once `maxNamespaces` is reached;
 * - a read looks a namespace up in LevelDB when memory does not know it (a reader may open before a namespace is
 *   added), with a synchronous point read (`getSync`): quadstore calls these hooks synchronously. On the writing
 *   handle a query's IRI of a new namespace gets an id too (the hooks cannot tell a read from a write); the id is
 *   written with the next index batch, or forgotten at close if none comes.
 */
export class NamespacePrefixes {
  readonly #sub: AnySublevel;
  #assign: boolean;
  readonly #max: number;
  readonly #cacheSize: number;
  readonly #minChars: number;
  #ids = new Map<string, string>();
  #names = new Map<string, string>();
  /** Ids given and not yet written: namespace → id. */
  readonly #unsaved = new Map<string, string>();
  #next: number;
  /**
   * Whether memory holds every namespace that has an id: then, on the handle that gives ids (no other handle adds
   * any), a namespace memory does not know has none, and no LevelDB read is needed to say so (a synchronous point read
   * per new namespace was ~2% of a crawl's CPU). Lost when the memory is cleared or this handle stops giving ids.
   */
  #complete = false;

  /** Use {@link open}: it reads the next id. */
  private constructor(sub: AnySublevel, next: number, opts: NamespacePrefixesOptions) {
    this.#sub = sub;
    this.#next = next;
    this.#assign = opts.assign ?? true;
    this.#max = opts.maxNamespaces ?? 1_000_000;
    this.#cacheSize = opts.cacheSize ?? 100_000;
    this.#minChars = opts.minNamespaceChars ?? 12;
  }

  /** The dictionary kept in `sub` (a utf8 sublevel). */
  static async open(sub: AnySublevel, opts: NamespacePrefixesOptions = {}): Promise<NamespacePrefixes> {
    const next = (await sub.get('#next')) as string | undefined;
    // The first limit stays the store's: a namespace kept whole because the dictionary was full must never get an id.
    let max = (await sub.get('#max')) as string | undefined;
    if (max === undefined && (opts.assign ?? true)) {
      max = String(opts.maxNamespaces ?? 1_000_000);
      await sub.put('#max', max);
    }
    const prefixes = new NamespacePrefixes(sub, next === undefined ? 0 : Number(next), { ...opts, maxNamespaces: Number(max ?? 0) });
    if (prefixes.#assign) await prefixes.#load();
    return prefixes;
  }

  /** Reads every namespace's id into memory when they fit in it (then {@link #complete}). */
  async #load(): Promise<void> {
    const entries = (await this.#sub.iterator({ gte: 'n', lt: 'o', limit: this.#cacheSize }).all()) as Array<[string, string]>;
    if (entries.length >= this.#cacheSize) return;
    for (const [key, id] of entries) this.#remember(key.slice(1), id);
    this.#complete = true;
  }

  /** Namespaces given an id (written or not). */
  get size(): number {
    return this.#next;
  }

  /** quadstore's hook: the form of `iri` in a key. */
  compactIri(iri: string): string {
    if (iri.charCodeAt(0) === MARK_CODE) return MARK + MARK + iri; // escaped: never expected from a parser
    const cut = Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#')) + 1;
    if (cut < this.#minChars) return iri;
    const ns = iri.slice(0, cut);
    const id = this.#idOf(ns);
    return id === undefined ? iri : `${MARK}${id}${MARK}${iri.slice(cut)}`;
  }

  /** quadstore's hook: the IRI of a key's named node. */
  expandTerm(term: string): string {
    if (term.charCodeAt(0) !== MARK_CODE) return term;
    if (term.charCodeAt(1) === MARK_CODE) return term.slice(2);
    const end = term.indexOf(MARK, 1);
    const id = term.slice(1, end);
    let ns = this.#names.get(id);
    if (ns === undefined) {
      ns = this.#sub.getSync(`i${id}`) as string | undefined;
      if (ns === undefined) throw new Error(`The index names namespace #${id}, which the store does not hold.`);
      this.#remember(ns, id);
    }
    return ns + term.slice(end + 1);
  }

  /**
   * Stages the ids given since the last write into `batch` (with the next id); returns what {@link saved} needs once
   * the batch is written. Call after every key of the batch is built.
   */
  stage(batch: Batch): Array<[string, string]> {
    if (this.#unsaved.size === 0) return [];
    const entries = [...this.#unsaved];
    const opts = { sublevel: this.#sub } as never;
    for (const [ns, id] of entries) {
      batch.put(`n${ns}`, id, opts);
      batch.put(`i${id}`, ns, opts);
    }
    batch.put('#next', String(this.#next), opts);
    return entries;
  }

  /**
   * Gives no more ids: another thread's handle takes over writing the index keys (indexer-thread.ts). Ids given but not
   * written are forgotten, as no key uses them and the new writer may give those numbers to other namespaces.
   */
  stopAssigning(): void {
    this.#assign = false;
    this.#complete = false;
    for (const [ns, id] of this.#unsaved) {
      this.#ids.delete(ns);
      this.#names.delete(id);
    }
    this.#unsaved.clear();
  }

  /** Gives ids again (after {@link stopAssigning}, when no other handle took over). */
  resumeAssigning(): void {
    this.#assign = true;
  }

  /** The ids of a written batch ({@link stage}'s result) need not be written again. */
  saved(entries: ReadonlyArray<[string, string]>): void {
    for (const [ns, id] of entries) if (this.#unsaved.get(ns) === id) this.#unsaved.delete(ns);
  }

  #idOf(ns: string): string | undefined {
    let id = this.#ids.get(ns);
    if (id !== undefined) return id;
    id = this.#complete && this.#assign ? undefined : (this.#sub.getSync(`n${ns}`) as string | undefined);
    if (id === undefined) {
      if (!this.#assign || this.#next >= this.#max) return undefined;
      id = (this.#next++).toString(36);
      this.#unsaved.set(ns, id);
    }
    this.#remember(ns, id);
    return id;
  }

  #remember(ns: string, id: string): void {
    if (this.#ids.size >= this.#cacheSize) {
      this.#complete = false;
      // Unsaved ids stay known: LevelDB does not hold them yet.
      this.#ids = new Map(this.#unsaved);
      this.#names = new Map([...this.#unsaved].map(([n, i]) => [i, n]));
    }
    this.#ids.set(ns, id);
    this.#names.set(id, ns);
  }
}
