// **CrawlGraphView**: the crawl-metadata graph (`urn:rdfscout:crawl`) as a view over the crawl records, so
// fetching writes one record instead of ~17 quads × 6 quadstore indexes (profiled at 46% of a crawl's CPU).
import type { Quad, Term } from '@rdfjs/types';
import { readRecord, readRecords, readRecordsOf } from './record-store.ts';
import type { CrawlRecord } from './record.ts';
import { RdfscoutError } from '../errors.ts';
import { recordToQuads } from './crawl-vocab.ts';
import { asShardSet, type CrawlSource, readMergedRecords, type ShardSet } from './shard-merge.ts';

const REDIRECT_PREFIX = 'urn:rdfscout:redirect:';

/**
 * The quads of `GRAPH <urn:rdfscout:crawl>`, computed from the records with `recordToQuads` (the same quads the
 * crawl used to store). A pattern with a bound subject reads only that document's records (through the
 * `record-urls` index, or the sequence number in a redirect hop's IRI); any other pattern scans the records,
 * in fetch order. Read-only; reads what is committed when the iteration reaches it.
 *
 * Over several shards read as one crawl it shows the merged reading's records (shard-merge.ts), and a
 * redirect hop's IRI names its shard: `urn:rdfscout:redirect:<shard>/<seq>:<hop>`, since each shard counts its own seqs.
 */
export class CrawlGraphView {
  readonly #set: ShardSet;

  constructor(source: CrawlSource) {
    this.#set = asShardSet(source);
  }

  get #multi(): boolean {
    return this.#set.states.length > 1;
  }

  /** The view's quads matching the pattern (undefined or null: any term). */
  async *match(subject?: Term | null, predicate?: Term | null, object?: Term | null): AsyncGenerator<Quad> {
    const df = (this.#set.states[0] as ShardSet['states'][number]).dataFactory;
    for await (const { shard, record } of this.#recordsAbout(subject ?? null)) {
      for (const q of recordToQuads(record, df, this.#multi ? `${shard + 1}/${record.seq}` : record.seq)) {
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

  async *#recordsAbout(subject: Term | null): AsyncGenerator<{ shard: number; record: CrawlRecord }> {
    for await (const found of this.#recordsMatching(subject)) {
      if (!isRecord(found.record)) {
        const dir = this.#set.states[found.shard]?.dir;
        throw new RdfscoutError('RDFSCOUT_STORE_FAILED', `A crawl record in ${dir} is malformed (${JSON.stringify(found.record).slice(0, 200)}); the crawl graph cannot be read.`);
      }
      yield found;
    }
  }

  async *#recordsMatching(subject: Term | null): AsyncGenerator<{ shard: number; record: CrawlRecord }> {
    const { states, plan } = this.#set;
    if (subject === null) {
      if (this.#multi) yield* readMergedRecords(this.#set);
      else for await (const record of readRecords(states[0] as ShardSet['states'][number])) yield { shard: 0, record };
      return;
    }
    if (subject.termType !== 'NamedNode') return;
    if (subject.value.startsWith(REDIRECT_PREFIX)) {
      const name = subject.value.slice(REDIRECT_PREFIX.length).split(':')[0] ?? '';
      const [shard, seq] = this.#multi ? (/^(\d+)\/(\d+)$/.exec(name)?.slice(1).map(Number) ?? [Number.NaN, Number.NaN]) : [1, Number(name)];
      const state = states[(shard as number) - 1];
      if (state === undefined || !Number.isSafeInteger(seq) || plan.dropped[(shard as number) - 1]?.has(seq as number)) return;
      const record = await readRecord(state, seq as number);
      if (record !== undefined) yield { shard: (shard as number) - 1, record };
      return;
    }
    for (const [i, state] of states.entries()) {
      for await (const record of readRecordsOf(state, subject.value)) if (!plan.dropped[i]?.has(record.seq)) yield { shard: i, record };
    }
  }
}

/** The fields recordToQuads relies on. */
function isRecord(r: unknown): r is CrawlRecord {
  const x = r as Partial<CrawlRecord> | null;
  return x !== null && typeof x === 'object' && typeof x.seq === 'number' && typeof x.url === 'string' && typeof x.finalUrl === 'string' && Array.isArray(x.rules) && Array.isArray(x.redirects);
}
