import { TfIdf } from 'natural/lib/natural/tfidf/index.js';
import { describe, expect, it } from 'vitest';
import { TfIdfFilter, stemTerms } from '../../src/topical/tfidf-filter.ts';

const NEWS = [
  'The football team won the match on Sunday after a late goal by the striker',
  'Stock markets fell sharply as investors worried about interest rates and inflation',
  'The mayor opened a new bridge across the river to ease traffic in the city centre',
  'Weather forecast: heavy rain and strong winds expected across the region tomorrow',
  'The film festival announced its winners, with a drama taking the top prize',
];
const CORE = [
  'FOAF profile of Alice in RDF: foaf:Person, foaf:knows, download the RDF/XML file',
  'Machine-readable data: RDF triples describing people with the FOAF vocabulary, also as Turtle',
  'Linked data export: SPARQL endpoint, RDF dumps and FOAF files for every member',
];

function trainedFilter(): TfIdfFilter {
  const f = new TfIdfFilter({ size: 20, refreshEvery: 1000 });
  for (const [i, text] of NEWS.entries()) f.observePage(`http://news.example/${i}`, text, []);
  for (const [i, text] of CORE.entries()) f.observePage(`http://lab.example/p${i}`, text, [{ url: `http://lab.example/p${i}.rdf`, text: 'FOAF RDF profile' }]);
  for (let i = 0; i < CORE.length; i++) {
    expect(f.addPageToCore(`http://lab.example/p${i}`)).toBe(true);
    expect(f.addLinkToCore(`http://lab.example/p${i}.rdf`)).toBe(true);
  }
  f.refresh();
  return f;
}

describe('stemTerms', () => {
  it("uses natural's tokeniser and Porter stemmer, without stop words", () => {
    expect(stemTerms('The FOAF profiles are describing people')).toEqual(['foaf', 'profil', 'describ', 'peopl']);
    expect(stemTerms('')).toEqual([]);
  });
});

describe('TfIdfFilter IR(p, F) (topical §2, §3 step 1)', () => {
  it('a core about FOAF/RDF ranks an RDF-ish link context above a news context', () => {
    const f = trainedFilter();
    const terms = f.terms.map(([t]) => t);
    expect(terms.slice(0, 5)).toContain('foaf');
    expect(terms).toContain('rdf');
    const rdfish = f.score('Download my FOAF profile (RDF)');
    const news = f.score('Read the latest football and weather news');
    expect(rdfish).toBeGreaterThan(0.3);
    expect(news).toBe(0);
    expect(rdfish).toBeLessThanOrEqual(1);
  });
  it('F has unit length; IR is Σ p_i F_i with p_i = tf·idf / ‖tf·idf‖ (checked against natural’s idf)', () => {
    const f = trainedFilter();
    expect(f.terms.reduce((s, [, w]) => s + w * w, 0)).toBeCloseTo(1, 12);
    // Rebuild natural's TfIdf over the same documents to get the idf the filter must have used.
    const json = f.toJSON();
    const tfidf = new TfIdf();
    tfidf.addDocument(Object.fromEntries(json.core) as never);
    for (const [, counts] of json.pages) tfidf.addDocument(Object.fromEntries(counts) as never);
    const F = new Map(f.terms);
    const text = 'foaf foaf rdf bridge';
    const w = new Map<string, number>([
      ['foaf', 2 * tfidf.idf('foaf')],
      ['rdf', tfidf.idf('rdf')],
      ['bridg', tfidf.idf('bridg')],
    ]);
    const norm = Math.sqrt([...w.values()].reduce((s, x) => s + x * x, 0));
    const expected = [...w].reduce((s, [t, x]) => s + (x / norm) * (F.get(t) ?? 0), 0);
    expect(f.score(text)).toBeCloseTo(expected, 12);
  });
  it('scores 0 until the core has a word; builds F at the first page after the core grows, then every refreshEvery pages', () => {
    const f = new TfIdfFilter({ refreshEvery: 3 });
    f.observePage('http://a/1', 'rdf foaf data', [{ url: 'http://a/x.rdf', text: 'foaf profile' }]);
    expect(f.score('foaf profile')).toBe(0);
    expect(f.addLinkToCore('http://a/x.rdf')).toBe(true);
    expect(f.addLinkToCore('http://a/x.rdf')).toBe(false); // once per URL
    expect(f.addLinkToCore('http://a/unknown')).toBe(false);
    f.observePage('http://a/2', 'weather news', []);
    expect(f.score('foaf profile')).toBeGreaterThan(0); // first filter built at once
    const before = f.terms;
    f.addTextToCore('skos thesaurus concepts');
    f.observePage('http://a/3', 'more news', []);
    expect(f.terms).toEqual(before); // not due yet
    f.observePage('http://a/4', 'more news', []);
    f.observePage('http://a/5', 'more news', []);
    expect(f.terms.map(([t]) => t)).toContain('sko'); // Porter: skos → sko
  });
  it('keeps at most backgroundPages pages and round-trips through JSON with identical scores', () => {
    const f = new TfIdfFilter({ backgroundPages: 3 });
    for (let i = 0; i < 10; i++) f.observePage(`http://a/${i}`, `page ${i} about topic${i}`, []);
    expect(f.toJSON().pages.map(([u]) => u)).toEqual(['http://a/7', 'http://a/8', 'http://a/9']);
    const g = trainedFilter();
    const back = new TfIdfFilter({ size: 20, refreshEvery: 1000 });
    back.restoreFrom(JSON.parse(JSON.stringify(g.toJSON())));
    for (const text of ['FOAF profile RDF', 'football news', 'linked data turtle']) expect(back.score(text)).toBe(g.score(text));
    expect(back.toJSON()).toEqual(g.toJSON());
  });
});
