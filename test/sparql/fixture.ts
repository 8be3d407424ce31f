
import type { Quad } from '@rdfjs/types';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { stageRecordWrite } from '../../src/crawl-log/record-store.ts';
import { stageDocuments } from '../../src/rdf/index.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { makeTempDir } from '../helpers/temp-dir.ts';

export const EX = 'http://ex.org/';
export const DOC1 = 'http://ex.org/doc1';
export const DOC2 = 'http://ex.org/doc2';
const FOAF = 'http://xmlns.com/foaf/0.1/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const PREFIXES = `PREFIX ex: <${EX}> PREFIX foaf: <${FOAF}> PREFIX rs: <https://w3id.org/rdfscout/ns#> PREFIX prov: <http://www.w3.org/ns/prov#> PREFIX http: <http://www.w3.org/2011/http#> PREFIX dcterms: <http://purl.org/dc/terms/>\n`;
/** A literal with a comma, quotes, a newline and a language tag. */
export const TRICKY = 'comma, "quote"\nnew line';

export function makeRecord(over: Partial<CrawlRecord>): CrawlRecord {
  return {
    seq: 1, url: DOC1, finalUrl: DOC1, status: 200, outcome: 'ok', contentType: 'text/turtle', detectedType: 'rdf', rdfFormat: 'text/turtle',
    parent: null, depth: 0, pld: 'ex.org', triples: 6, linksQueued: 2, error: null, errorMessage: null, label: null, rules: [],
    redirects: [], ms: 15, fetchedAt: '2024-05-01T10:00:00.000Z', ...over,
  };
}

export interface Fixture {
  state: CrawlState;
  /** The crawl records written (the crawl graph's view is made of them). */
  records: CrawlRecord[];
  cleanup(): Promise<void>;
}

/** Opens a fresh state and fills it as the crawler would: one transaction per document, content and record together. */
export async function makeFixture(): Promise<Fixture> {
  const { dir, remove } = await makeTempDir();
  const state = await openState(dir);
  const df = state.dataFactory;
  const n = (s: string) => df.namedNode(s);
  const lit = (v: string, dtOrLang?: string) => (dtOrLang === undefined ? df.literal(v) : dtOrLang.includes(':') ? df.literal(v, n(dtOrLang)) : df.literal(v, dtOrLang));
  const doc1: Quad[] = [
    df.quad(n(`${EX}alice`), n(`${FOAF}name`), lit('Alice'), n(DOC1)),
    df.quad(n(`${EX}alice`), n(`${FOAF}knows`), n(`${EX}bob`), n(DOC1)),
    df.quad(n(`${EX}alice`), n(`${EX}note`), lit(TRICKY, 'en'), n(DOC1)),
    df.quad(n(`${EX}alice`), n(`${EX}age`), lit('42', `${XSD}integer`), n(DOC1)),
    df.quad(n(`${EX}alice`), n(`${EX}friend`), df.blankNode('f1'), n(DOC1)),
    df.quad(df.blankNode('f1'), n(`${FOAF}name`), lit('Anon'), n(DOC1)),
  ];
  const doc2: Quad[] = [
    df.quad(n(`${EX}bob`), n(`${FOAF}name`), lit('Bob'), n(DOC2)),
    df.quad(n(`${EX}alice`), n(`${FOAF}name`), lit('Alice'), n(DOC2)),
    df.quad(n(`${EX}bob`), n(`${EX}tab`), lit('a\tb'), n(DOC2)),
  ];
  const r1 = makeRecord({ seq: 1, url: DOC1, finalUrl: DOC1, triples: doc1.length });
  const r2 = makeRecord({
    seq: 2, url: `${EX}doc2-alias`, finalUrl: DOC2, parent: DOC1, depth: 1, triples: doc2.length, label: 'R', rules: ['r1', 'r3'],
    redirects: [{ from: `${EX}doc2-alias`, to: DOC2, status: 303 }], fetchedAt: '2024-05-01T10:00:01.000Z',
  });
  for (const [quads, record] of [[doc1, r1], [doc2, r2]] as const) {
    const txn = state.txn();
    stageDocuments(state, txn, quads);
    stageRecordWrite(state, txn, record); // as the crawler does: the crawl graph is a view over the records
    await txn.commit();
  }
  return {
    state,
    records: [r1, r2],
    cleanup: async () => {
      await state.close();
      await remove();
    },
  };
}

/** Adds `n` × `n` quads to one graph so that a triple cross join has n^6 solutions: far more than any timeout allows. */
export async function addHeavyGraph(state: CrawlState, n = 40): Promise<void> {
  const df = state.dataFactory;
  const quads: Quad[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) quads.push(df.quad(df.namedNode(`${EX}h${i}`), df.namedNode(`${EX}hp${j}`), df.literal(String(i * j)), df.namedNode(`${EX}heavy`)));
  const txn = state.txn();
  stageDocuments(state, txn, quads);
  await txn.commit();
}
