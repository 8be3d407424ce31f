import { describe, expect, it } from 'vitest';
import { Umb09KnowledgeBase, umb09Features } from '../../src/relevance/umb09.ts';
import { parseUrlParts } from '../../src/relevance/url-parts.ts';

const p = parseUrlParts;

describe('[Umb09] features (thesis §10)', () => {
  it('extension, then each path word, then host+word', () => {
    expect(umb09Features(p('http://a.org/data/foaf-alice.rdf'))).toEqual([
      { kind: 'ext', key: 'e:rdf' },
      { kind: 'word', key: 'w:data' },
      { kind: 'word', key: 'w:foaf' },
      { kind: 'word', key: 'w:alice' },
      { kind: 'host', key: 'h:a.org data' },
      { kind: 'host', key: 'h:a.org foaf' },
      { kind: 'host', key: 'h:a.org alice' },
    ]);
  });
  it('no extension feature when the URL has none', () => {
    expect(umb09Features(p('http://a.org/x/')).map((f) => f.kind)).toEqual(['word', 'host']);
  });
});

describe('[Umb09] knowledge base', () => {
  it('knows nothing at first: relevance 0, no rule', () => {
    expect(new Umb09KnowledgeBase().predict(p('http://a.org/x.rdf'))).toEqual({ relevance: 0, htmlConfidence: 0, rule: null });
  });

  it('updates sup and conf per observed document', () => {
    const kb = new Umb09KnowledgeBase();
    kb.observe(p('http://a.org/data/one.rdf'), 'rdf');
    kb.observe(p('http://a.org/data/two.rdf'), 'rdf');
    kb.observe(p('http://a.org/data/three.rdf'), 'html');
    kb.observe(p('http://a.org/pages/four.html'), 'html');
    expect(kb.total).toBe(4);
    expect(kb.support('e:rdf')).toBe(3 / 4);
    expect(kb.confidence('e:rdf', 'rdf')).toBe(2 / 3);
    expect(kb.confidence('e:rdf', 'html')).toBe(1 / 3);
    expect(kb.confidence('w:data', 'rdf')).toBe(2 / 3);
    expect(kb.confidence('w:pages', 'html')).toBe(1);
    expect(kb.confidence('e:zip', 'rdf')).toBeNull();
    expect(kb.support('e:zip')).toBe(0);
  });

  it('applies extension first, then path words, then host+word', () => {
    const kb = new Umb09KnowledgeBase();
    kb.observe(p('http://a.org/people/x.rdf'), 'rdf');
    kb.observe(p('http://a.org/pages/y.php'), 'html');
    // Extension known → the extension rule decides even though "pages" says html.
    expect(kb.predict(p('http://a.org/pages/z.rdf'))).toEqual({ relevance: 1, htmlConfidence: 0, rule: 'u-ext' });
    // Unknown extension → first known path word.
    expect(kb.predict(p('http://b.org/people/z.xml'))).toEqual({ relevance: 1, htmlConfidence: 0, rule: 'u-word' });
    expect(kb.predict(p('http://a.org/nothing/pages/q'))).toEqual({ relevance: 0, htmlConfidence: 1, rule: 'u-word' });
    expect(kb.predict(p('http://c.org/unknown/q.xml')).rule).toBeNull();
  });

  it('word overlap keeps confidences at or below 0.5', () => {
    const kb = new Umb09KnowledgeBase();
    kb.observe(p('http://a.org/data/alice'), 'rdf');
    kb.observe(p('http://a.org/data/about'), 'html');
    expect(kb.predict(p('http://a.org/data/bob')).relevance).toBe(0.5);
  });

  it('round-trips through JSON', () => {
    const kb = new Umb09KnowledgeBase();
    kb.observe(p('http://a.org/data/one.rdf'), 'rdf');
    kb.observe(p('http://a.org/pic/one.svg'), 'other');
    const copy = Umb09KnowledgeBase.fromJSON(JSON.parse(JSON.stringify(kb)));
    expect(copy.total).toBe(2);
    expect(copy.predict(p('http://a.org/pic/two.svg'))).toEqual(kb.predict(p('http://a.org/pic/two.svg')));
    expect(copy.confidence('w:one', 'other')).toBe(0.5);
    expect(Umb09KnowledgeBase.fromJSON(null).total).toBe(0);
  });
});
