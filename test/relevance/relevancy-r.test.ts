import { describe, expect, it } from 'vitest';
import { defaultConceptSets, tokenize } from '../../src/relevance/concepts.ts';
import { Prng } from '../../src/random/prng.ts';
import { deriveLinkFeatures } from '../../src/relevance/link-features.ts';
import { R_RULES, containsRdfContentType, hasRdfConcept, judgeRdfDocumentLink, judgeRelevancyR, mayHaveRdfConcept } from '../../src/relevance/relevancy-r.ts';
import { link } from './helpers.ts';

const c = defaultConceptSets();
const judge = (l: ReturnType<typeof link>) => judgeRelevancyR(deriveLinkFeatures(l), c);

// One hand-made link per rule where that rule, and only it, fires (thesis §4 table).
const ALONE: Record<(typeof R_RULES)[number], ReturnType<typeof link>> = {
  ex1: link('http://ex.org/data/x1.ttl'),
  ty1: link('http://ex.org/data/x1', { type: 'application/trig' }),
  ti1: link('http://ex.org/data/x1', { title: 'Download as application/trig' }),
  an1: link('http://ex.org/data/x1', { anchor: 'application/trig' }),
  co1: link('http://ex.org/data/x1', { context: 'also available as application/trig, see below' }),
  ty2: link('http://ex.org/data/x1', { type: 'text/rdf' }),
  ti2: link('http://ex.org/data/x1', { title: 'FOAF profile' }),
  an2: link('http://ex.org/data/x1', { anchor: 'my foaf' }),
  co2: link('http://ex.org/data/x1', { context: 'the RDF version of this page' }),
  pa1: link('http://ex.org/foaf/me'),
};

describe('Relevancy_R (thesis §4)', () => {
  for (const rule of R_RULES) {
    it(`${rule} fires alone on its hand-made link and labels it R`, () => {
      expect(judge(ALONE[rule])).toEqual({ label: 'R', rules: [rule] });
    });
  }

  it('records every rule that fired, in thesis order', () => {
    const l = link('http://ex.org/foaf/me.rdf', {
      type: 'application/rdf+xml',
      title: 'RDF (application/rdf+xml)',
      anchor: 'text/turtle FOAF',
      context: 'as text/n3 or rdf',
    });
    expect(judge(l)).toEqual({ label: 'R', rules: ['ex1', 'ty1', 'ti1', 'an1', 'co1', 'ty2', 'ti2', 'an2', 'co2', 'pa1'] });
  });

  it('ty1 and ty2 fire together for a media type containing a concept word', () => {
    expect(judge(link('http://ex.org/x', { type: 'text/turtle; charset=utf-8' })).rules).toEqual(['ty1', 'ty2']);
  });

  it('without rules: HTML extension or none → H, any other extension → N', () => {
    expect(judge(link('http://ex.org/a/page.php'))).toEqual({ label: 'H', rules: [] });
    expect(judge(link('http://ex.org/a/page.HTM'))).toEqual({ label: 'H', rules: [] });
    expect(judge(link('http://ex.org/a/b/'))).toEqual({ label: 'H', rules: [] });
    expect(judge(link('http://ex.org/'))).toEqual({ label: 'H', rules: [] });
    expect(judge(link('http://ex.org/a/data.xml'))).toEqual({ label: 'N', rules: [] });
    expect(judge(link('http://ex.org/a/data.json'))).toEqual({ label: 'N', rules: [] });
  });

  it('matches concept words on word boundaries only', () => {
    expect(judge(link('http://ex.org/wordfile/birdfeeder', { anchor: 'wordfile', title: 'powl', context: 'thirdfloor' }))).toEqual({ label: 'H', rules: [] });
    expect(judge(link('http://ex.org/x', { anchor: 'Get the RDF!' })).rules).toEqual(['an2']);
    expect(judge(link('http://ex.org/people/myFoaf')).rules).toEqual(['pa1']);
    expect(judge(link('http://ex.org/data/foaf-alice.xml'))).toEqual({ label: 'R', rules: ['pa1'] });
  });

  it('does not let the file extension fire pa1 (that is ex1)', () => {
    expect(judge(link('http://ex.org/people/alice.rdf')).rules).toEqual(['ex1']);
  });

  it('matches multi-word concepts on consecutive tokens', () => {
    expect(judge(link('http://ex.org/x', { anchor: 'JSON-LD' })).rules).toEqual(['an2']);
    expect(judge(link('http://ex.org/x', { anchor: 'json and ld' })).rules).toEqual([]);
  });

  it('finds a media type in text only when it stands alone', () => {
    expect(containsRdfContentType('served as text/n3.', c)).toBe(true);
    expect(containsRdfContentType('served as text/n3x', c)).toBe(false);
    expect(containsRdfContentType('xapplication/trig', c)).toBe(false);
    expect(containsRdfContentType('no slash here', c)).toBe(false);
  });
});

describe('links inside RDF documents, by extension alone (thesis §8.2)', () => {
  const judgeRdf = (url: string, features = {}) => judgeRdfDocumentLink(deriveLinkFeatures(link(url, features)), c);
  it('RDF extension → R (ex1), none → R (ex0), HTML → H, other → N', () => {
    expect(judgeRdf('http://ex.org/a.ttl')).toEqual({ label: 'R', rules: ['ex1'] });
    expect(judgeRdf('http://ex.org/resource/Alice')).toEqual({ label: 'R', rules: ['ex0'] });
    expect(judgeRdf('http://ex.org/page.html')).toEqual({ label: 'H', rules: [] });
    expect(judgeRdf('http://ex.org/pic.svg')).toEqual({ label: 'N', rules: [] });
  });
  it('ignores the text features', () => {
    expect(judgeRdf('http://ex.org/page.html', { anchor: 'rdf', type: 'text/turtle' })).toEqual({ label: 'H', rules: [] });
  });
});

describe('the concept pre-check before tokenising (issue 18: most link text is never tokenised)', () => {
  const concepts = defaultConceptSets();
  // Pieces that make and break concept words: camelCase humps, separators, digits, non-ASCII letters and case.
  const PIECES = ['rdf', 'RDF', 'Rdf', 'json', 'Ld', ' ld', 'n', '3', 'N3', 'word', 'file', 'my', 'Turtle', 'tt', 'l', '-', '_', '.', ' ', 'İ', 'Σ', 'é', 'x', 'owl', 'Owl', 'fo', 'af', 'void', 'VOID', 'skos', 'triples'];

  it('never says "no" to a text whose tokens hold a concept word (random texts)', () => {
    const g = new Prng(18);
    let withConcept = 0;
    let skipped = 0;
    for (let i = 0; i < 5000; i++) {
      const n = 1 + Math.floor(g.next() * 6);
      let text = '';
      for (let k = 0; k < n; k++) text += PIECES[Math.floor(g.next() * PIECES.length)];
      const has = hasRdfConcept(tokenize(text), concepts);
      const may = mayHaveRdfConcept(text.toLowerCase(), concepts);
      if (has) {
        withConcept++;
        expect(may, text).toBe(true);
      }
      if (!may) skipped++;
    }
    expect(withConcept).toBeGreaterThan(500); // both sides were exercised
    expect(skipped).toBeGreaterThan(500);
  });

  it('judges as before: a concept in the context fires co2, a near miss does not, and text without any is not tokenised', () => {
    expect(judgeRelevancyR(deriveLinkFeatures(link('http://a.example/x', { context: 'download the myRdf dump' })), concepts).rules).toContain('co2');
    expect(judgeRelevancyR(deriveLinkFeatures(link('http://a.example/x', { context: 'a wordfile here' })), concepts).rules).toEqual([]);
    const f = deriveLinkFeatures(link('http://a.example/x', { context: 'nothing to see', anchor: 'home' }));
    let read = 0;
    const get = (t: typeof f.tokens, k: string | symbol): unknown => {
      if (k === 'context' || k === 'anchor') read++;
      return Reflect.get(t, k);
    };
    const counting = { ...f, tokens: new Proxy(f.tokens, { get }) };
    expect(judgeRelevancyR(counting, concepts)).toEqual({ label: 'H', rules: [] });
    expect(read).toBe(0);
  });
});
