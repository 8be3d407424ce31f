// ParsePool: a document analysed in a worker thread gives what `analyseDocument` gives on the crawl's thread, while
// the crawl's thread spends a small part of the parse's CPU; the parse budget, a store failure and a worker's death
// end the document as they would on one thread.
import { Writer } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalysisOptions, analyseDocument } from '../../src/crawl/analyse-document.ts';
import { ParsePool } from '../../src/crawl/parse-pool.ts';
import type { FetchResult } from '../../src/fetch/types.ts';
import { DocumentWriter } from '../../src/rdf/index.ts';
import { useTempState } from '../helpers/temp-state.ts';

const URL_ = 'http://data.example.org/report.ttl';

/** A Turtle report of ~2 MB (45,000 triples with blank nodes), as test-suite reports are. */
function report(): string {
  const out = ['@prefix ex: <http://example.org/ns#> .', '@prefix dct: <http://purl.org/dc/terms/> .', ''];
  for (let i = 0; i < 5000; i++) {
    out.push(
      `<http://data.example.org/a/${i}> a ex:Assertion ; dct:title "Test case number ${i} of the suite"@en ; ex:result ex:passed ;`,
      `  ex:test <http://data.example.org/tests#t${i % 977}> ; ex:seeAlso <http://other.example.org/${i}> ; dct:date "2024-01-0${1 + (i % 9)}" ;`,
      `  ex:by [ ex:name "Tester ${i % 300}" ; ex:page <http://data.example.org/people/${i % 300}> ] .`,
    );
  }
  return `${out.join('\n')}\n`;
}

function fetched(body: string, url = URL_): FetchResult {
  return { kind: 'ok', url, finalUrl: url, redirects: [], ms: 1, status: 200, contentType: 'text/turtle', headers: {}, body: Buffer.from(body), charset: null };
}

function cpuMs(): number {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
}

const OPTS: AnalysisOptions = { followRdfLinks: true, maxLinksPerDoc: 500, normalize: 'standard', pageText: false };
const BODY = report();

describe('ParsePool', () => {
  const tmp = useTempState();
  let pool: ParsePool;
  beforeAll(async () => {
    pool = new ParsePool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('analyses a 2 MB document in a worker as the crawl thread would, for a fraction of its CPU on the crawl thread', async () => {
    const state = tmp.state;
    await pool.analyse(fetched('<http://a.example/> <http://a.example/p> "warm" .', 'http://warm.example/'), null, OPTS, async (u) => new DocumentWriter(state, u));
    let t0 = cpuMs();
    const here = await analyseDocument(fetched(BODY), null, OPTS, async (u) => new DocumentWriter(state, u));
    const hereMs = cpuMs() - t0;
    t0 = cpuMs();
    const there = await pool.analyse(fetched(BODY, `${URL_}?again`), null, OPTS, async (u) => new DocumentWriter(state, u));
    const thereMs = cpuMs() - t0;
    expect(here.triples).toBe(45000);
    expect(there.triples).toBe(here.triples);
    expect(there.document?.count).toBe(here.document?.count);
    expect(there.document?.spilledChunks).toBe(here.document?.spilledChunks);
    expect(there.links).toEqual(here.links);
    expect(there.links.length).toBe(500);
    expect(there.voidPoints).toEqual(here.voidPoints);
    expect({ ...there, document: null, links: null }).toEqual({ ...here, document: null, links: null });
    // The crawl thread only writes the worker's chunks and reads the result.
    expect(thereMs).toBeLessThan(0.35 * hereMs);
  }, 60_000);

  it('keeps the parse budget: a document over its CPU time fails, whole, with the same error', async () => {
    const state = tmp.state;
    const opts: AnalysisOptions = { ...OPTS, parse: { timeBudgetMs: 20 } };
    const here = await analyseDocument(fetched(BODY), null, opts, async (u) => new DocumentWriter(state, u));
    const there = await pool.analyse(fetched(BODY), null, opts, async (u) => new DocumentWriter(state, u));
    expect(here.error).toBe('RDFSCOUT_PARSE_FAILED');
    expect(there.error).toBe(here.error);
    expect(there.errorMessage).toBe(here.errorMessage);
    expect(there.triples).toBe(0);
    expect(there.partial.length).toBeGreaterThan(0);
    // The partial quads (n3's terms, which keep their parts behind getters) cross whole.
    const lines = (qs: typeof here.partial) => qs.map((q) => new Writer({ format: 'N-Quads' }).quadToString(q.subject, q.predicate, q.object, q.graph));
    expect(lines(there.partial).slice(0, 50)).toEqual(lines(here.partial).slice(0, 50));
  }, 60_000);

  it('fails the document with the store error when its chunks cannot be written', async () => {
    const state = tmp.state;
    await state.db.close(); // every write now fails
    const here = analyseDocument(fetched(BODY), null, OPTS, async (u) => new DocumentWriter(state, u));
    const there = pool.analyse(fetched(BODY), null, OPTS, async (u) => new DocumentWriter(state, u));
    await expect(here).rejects.toMatchObject({ code: 'RDFSCOUT_STORE_FAILED' });
    await expect(there).rejects.toMatchObject({ code: 'RDFSCOUT_STORE_FAILED' });
    await tmp.reopen({ crash: true });
  }, 60_000);

  it('analyses a body under minBytes on the calling thread, and starts its workers at the first one over it', async () => {
    const state = tmp.state;
    const own = new ParsePool({ size: 1, minBytes: 256 * 1024 });
    try {
      const small = await own.analyse(fetched(BODY.slice(0, BODY.indexOf('\n<http://data.example.org/a/40>'))), null, OPTS, async (u) => new DocumentWriter(state, u));
      expect(small.triples).toBe(360);
      expect(own.started).toBe(false);
      const large = await own.analyse(fetched(BODY), null, OPTS, async (u) => new DocumentWriter(state, u));
      expect(own.started).toBe(true);
      expect(own.size).toBe(1);
      expect(large.triples).toBe(45000);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('fails the documents of a worker that dies (RDFSCOUT_INTERNAL), and takes no more', async () => {
    const own = new ParsePool({ size: 1 });
    const state = tmp.state;
    const pending = own.analyse(fetched(BODY), null, OPTS, async (u) => new DocumentWriter(state, u));
    await own.close();
    await expect(pending).rejects.toMatchObject({ code: 'RDFSCOUT_INTERNAL' });
    expect(own.size).toBe(0);
    await expect(own.analyse(fetched(BODY), null, OPTS, async (u) => new DocumentWriter(state, u))).rejects.toMatchObject({ code: 'RDFSCOUT_INTERNAL' });
  }, 60_000);
});
