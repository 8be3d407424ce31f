// **CrawlGraphView**: the crawl-metadata graph (`urn:rdfscout:crawl`) as a view over the crawl records, so
// fetching writes one record instead of ~17 quads × 6 quadstore indexes (issue 8's profile: 46% of a crawl's CPU).
import type { Quad, Term } from '@rdfjs/types';
import { readRecord, readRecords, readRecordsOf } from './record-store.ts';
import type { CrawlRecord } from './record.ts';
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { recordToQuads } from './crawl-vocab.ts';

const REDIRECT_PREFIX = 'urn:rdfscout:redirect:';

/**
 * The quads of `GRAPH <urn:rdfscout:crawl>`, computed from the records with `recordToQuads` (the same quads the
 * crawl used to store). A pattern with a bound subject reads only that document's records (through the
 * `record-urls` index, or the sequence number in a redirect hop's IRI); any other pattern scans the records,
 * in fetch order. Read-only; reads what is committed when the iteration reaches it.
 */
export class CrawlGraphView {
  readonly #state: CrawlState;

  constructor(state: CrawlState) {
    this.#state = state;
  }

  /** The view's quads matching the pattern (undefined or null: any term). */
  async *match(subject?: Term | null, predicate?: Term | null, object?: Term | null): AsyncGenerator<Quad> {
    const df = this.#state.dataFactory;
    for await (const record of this.#recordsAbout(subject ?? null)) {
      for (const q of recordToQuads(record, df)) {
        if ((subject && !q.subject.equals(subject)) || (predicate && !q.predicate.equals(predicate)) || (object && !q.object.equals(object))) continue;
        yield q;
      }
    }
  }

  /**
   * The exact number of matching quads (Comunica takes a source's count as exact cardinality). Cheap with a
   * bound subject; otherwise one scan of the records.
   */
  async count(subject?: Term | null, predicate?: Term | null, object?: Term | null): Promise<number> {
    let n = 0;
    for await (const _ of this.match(subject, predicate, object)) n++;
    return n;
  }

  async *#recordsAbout(subject: Term | null): AsyncGenerator<CrawlRecord> {
    for await (const record of this.#recordsMatching(subject)) {
      if (!isRecord(record)) {
        throw new RdfscoutError('RDFSCOUT_STORE_FAILED', `A crawl record in ${this.#state.dir} is malformed (${JSON.stringify(record).slice(0, 200)}); the crawl graph cannot be read.`);
      }
      yield record;
    }
  }

  async *#recordsMatching(subject: Term | null): AsyncGenerator<CrawlRecord> {
    if (subject === null) {
      yield* readRecords(this.#state);
      return;
    }
    if (subject.termType !== 'NamedNode') return;
    if (subject.value.startsWith(REDIRECT_PREFIX)) {
      const seq = Number(subject.value.slice(REDIRECT_PREFIX.length).split(':')[0]);
      if (!Number.isSafeInteger(seq)) return;
      const record = await readRecord(this.#state, seq);
      if (record !== undefined) yield record;
      return;
    }
    yield* readRecordsOf(this.#state, subject.value);
  }
}

/** The fields recordToQuads relies on. */
function isRecord(r: unknown): r is CrawlRecord {
  const x = r as Partial<CrawlRecord> | null;
  return x !== null && typeof x === 'object' && typeof x.seq === 'number' && typeof x.url === 'string' && typeof x.finalUrl === 'string' && Array.isArray(x.rules) && Array.isArray(x.redirects);
}
