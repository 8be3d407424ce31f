// **writeShardedCrawl** stores one seeded generated crawl twice: in one folder, and split over several shards as workers would.
import { join } from 'node:path';
import type { Quad } from '@rdfjs/types';
import { stageRecordWrite } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { Prng } from '../../src/random/prng.ts';
import { stageDocument } from '../../src/rdf/index.ts';
import { termsKey } from '../../src/sparql/union-dedupe.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';

/** Options of {@link writeShardedCrawl}. */
export interface ShardDataOptions {
  readonly seed: number;
  /** Documents in all. */
  readonly documents: number;
  /** Triples stated by each document (some shared with other documents). */
  readonly triplesPerDocument: number;
  /** Shard folders to split the documents over (≥ 2). */
  readonly shards: number;
  /** Whether to write the single folder too. Default: true. */
  readonly single?: boolean;
}

/** The folders written: `single` holds the whole crawl, `shards` the same crawl split. */
export interface ShardedCrawl {
  readonly single: string;
  readonly shards: readonly string[];
  /** Quads of the crawl (each document once, its later copy). */
  readonly quads: number;
  /** Distinct triples of the crawl: the size of the default graph. */
  readonly triples: number;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const VOCABS = 24;
const SITES = 40;
/** Triples several documents state (vocabulary terms, shared labels): the default graph's merge drops their repeats. */
const SHARED = 3000;

/**
 * One document's triples as N-Triples-like term specs, built with the state's factory when stored. `variant` 1 is an
 * older copy of the document (another shard fetched it earlier): partly different triples, which the merge must not show.
 */
function documentQuads(state: CrawlState, seed: number, doc: number, triples: number, variant: number): Quad[] {
  const df = state.dataFactory;
  const prng = Prng.of(seed, 'doc', doc, variant);
  const site = doc % SITES;
  const graph = df.namedNode(docUrl(doc));
  const vocab = (i: number): string => `http://vocab${i % VOCABS}.example.org/ns/`;
  const quads: Quad[] = [];
  for (let n = 0; n < triples; n++) {
    if (prng.chance(0.3)) {
      const t = Prng.of(seed, 'shared', prng.nextInt(SHARED));
      const s = df.namedNode(`http://site${t.nextInt(SITES)}.example.org/topic/t${t.nextInt(500)}`);
      const p = df.namedNode(`${vocab(t.nextInt(VOCABS))}p${t.nextInt(12)}`);
      const o = t.chance(0.5) ? df.namedNode(`${vocab(t.nextInt(VOCABS))}C${t.nextInt(40)}`) : df.literal(`label ${t.nextInt(1000)}`, t.chance(0.5) ? 'en' : 'de');
      quads.push(df.quad(s, p, o, graph));
      continue;
    }
    const s = prng.chance(0.15) ? df.blankNode(`d${doc}b${prng.nextInt(4)}`) : df.namedNode(`http://site${site}.example.org/page${doc % 9}/r${doc}_${prng.nextInt(25)}`);
    const p = df.namedNode(`${vocab(prng.nextInt(VOCABS))}q${prng.nextInt(15)}`);
    let o: Quad['object'];
    switch (prng.nextInt(5)) {
      case 0:
        o = df.namedNode(`http://site${prng.nextInt(SITES)}.example.org/page${prng.nextInt(9)}/r${prng.nextInt(4000)}_${prng.nextInt(25)}`);
        break;
      case 1:
        o = df.literal(String(prng.nextInt(100_000)), df.namedNode(`${XSD}integer`));
        break;
      case 2:
        o = df.literal(`text ${doc} ${n} v${variant}`, prng.chance(0.5) ? 'en' : undefined);
        break;
      case 3:
        o = df.blankNode(`d${doc}b${prng.nextInt(4)}`);
        break;
      default:
        o = df.literal(`2026-01-${String(1 + prng.nextInt(28)).padStart(2, '0')}`, df.namedNode(`${XSD}date`));
    }
    quads.push(df.quad(s, p, o, graph));
  }
  return quads;
}

function docUrl(doc: number): string {
  return `http://site${doc % SITES}.example.org/doc/${doc}`;
}

function record(seq: number, url: string, second: number, triples: number): CrawlRecord {
  return {
    seq, url, finalUrl: url, status: 200, outcome: 'ok', contentType: 'text/turtle', detectedType: 'rdf', rdfFormat: 'text/turtle',
    parent: null, depth: 0, pld: new URL(url).hostname, triples, linksQueued: 0, error: null, errorMessage: null, label: null, rules: [],
    redirects: [], ms: 1, fetchedAt: new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString(),
  };
}

/** A document stored in a folder: which document, which copy, when fetched. */
interface Placement {
  doc: number;
  variant: number;
  second: number;
}

/** Writes the documents into a new folder; adds the triples of the later copies to `distinct`, if given. */
async function writeFolder(dir: string, seed: number, triples: number, placements: readonly Placement[], distinct?: Set<string>): Promise<number> {
  const state = await openState(dir);
  let quads = 0;
  try {
    for (let i = 0; i < placements.length; i += 50) {
      const txn = state.txn();
      for (const [k, p] of placements.slice(i, i + 50).entries()) {
        const url = docUrl(p.doc);
        const list = documentQuads(state, seed, p.doc, triples, p.variant);
        const n = stageDocument(state, txn, url, list);
        if (distinct !== undefined && p.variant === 0) for (const q of list) distinct.add(termsKey([q.subject, q.predicate, q.object]));
        quads += p.variant === 0 ? n : 0;
        stageRecordWrite(state, txn, record(i + k + 1, url, p.second, n));
      }
      await txn.commit();
    }
    await state.indexer.flush();
  } finally {
    await state.close();
  }
  return quads;
}

/**
 * Writes the crawl into `root/single` (unless `single: false`) and `root/shard-<i>`. Each document goes to one shard; every tenth is also
 * fetched earlier by the next shard (an older copy with other triples: the merge takes the later one). Each shard
 * stores its documents in its own shuffled order, so its namespace ids (namespace-prefixes.ts) differ from the
 * others' and its index keys sort in another order.
 */
export async function writeShardedCrawl(root: string, opts: ShardDataOptions): Promise<ShardedCrawl> {
  const { seed, documents, triplesPerDocument: triples, shards } = opts;
  const single: Placement[] = [];
  const split: Placement[][] = Array.from({ length: shards }, () => []);
  for (let doc = 0; doc < documents; doc++) {
    const second = 10 * doc + 5;
    single.push({ doc, variant: 0, second });
    split[doc % shards]?.push({ doc, variant: 0, second });
    if (doc % 10 === 0) split[(doc + 1) % shards]?.push({ doc, variant: 1, second: second - 3 });
  }
  for (const [i, list] of split.entries()) {
    const prng = Prng.of(seed, 'order', i);
    for (let k = list.length - 1; k > 0; k--) {
      const j = prng.nextInt(k + 1);
      [list[k], list[j]] = [list[j] as Placement, list[k] as Placement];
    }
  }
  const dirs = split.map((_, i) => join(root, `shard-${i}`));
  const distinct = new Set<string>();
  if (opts.single !== false) await writeFolder(join(root, 'single'), seed, triples, single);
  let quads = 0;
  for (const [i, list] of split.entries()) quads += await writeFolder(dirs[i] as string, seed, triples, list, distinct);
  return { single: join(root, 'single'), shards: dirs, quads, triples: distinct.size };
}
