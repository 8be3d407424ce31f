// The JSON-LD fast path against jsonld-streaming-parser: it declines, or it gives an isomorphic graph.
import type { Quad } from '@rdfjs/types';
import { isomorphic } from 'rdf-isomorphic';
import { describe, expect, it } from 'vitest';
import { RecoveryLog } from '../../src/rdf/recovery-log.ts';
import { TermGuard } from '../../src/rdf/term-guard.ts';
import { Util as ContextUtil } from 'jsonld-context-parser';
import { readFileSync } from 'node:fs';
import { CONTEXTS_DIR, shippedContextDocument } from '../../src/rdf/context-loader.ts';
import { parseDocument, parseRdfDocumentInto } from '../../src/rdf/parse-document.ts';
import { parseEmbedded } from '../../src/rdf/parse-embedded.ts';
import { convertJsonLd } from '../../src/rdf/jsonld-fast.ts';
import { isValidIri } from '../../src/rdf/jsonld-fast-text.ts';
import { parseRdfText } from '../../src/rdf/parse-formats.ts';
import { Prng } from '../../src/random/prng.ts';
import { type ParseOptions, resolveParseOptions } from '../../src/rdf/parse-options.ts';
import { BlankNodeRelabeller, createBudget } from '../../src/rdf/run-parser.ts';
import { generateDocument } from './jsonld-fast-corpus.ts';
import { simwebJsonLd } from './jsonld-fast-simweb.ts';

const BASE = 'http://shop.example/products/42?page=1';
const config = resolveParseOptions();
/** The library alone: the fast path off through the options. */
const LIBRARY: ParseOptions = { jsonLdFastPath: false };
const libraryConfig = resolveParseOptions(LIBRARY);

/** What rdfscout gave before the fast path: parseRdfText with the fast path off. */
async function library(text: string, base: string): Promise<{ quads: Quad[]; ok: boolean }> {
  const r = await parseRdfText(text, 'application/ld+json', base, libraryConfig, createBudget(config.maxQuads, config.timeBudgetMs), new BlankNodeRelabeller('x_'));
  return { quads: r.quads, ok: r.problem === null };
}

/** Compares the fast path with the library on `text`: 'declined', or 'same' (else the test fails with both graphs). */
async function compare(text: string, base = BASE): Promise<'declined' | 'same'> {
  const converted = convertJsonLd(text, base, config);
  if (converted === null) return 'declined';
  // The library's side passes the term guard in parseRdfText; the converter's quads pass it here.
  const fast: Quad[] = [];
  const guard = new TermGuard({ add: (q) => fast.push(q) }, base, new BlankNodeRelabeller('x_'), new RecoveryLog(), false);
  for (const q of converted) guard.add(q);
  const lib = await library(text, base);
  const show = (qs: Quad[]) => qs.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}@${'language' in q.object ? q.object.language : ''}^^${'datatype' in q.object ? q.object.datatype.value : ''}`).sort();
  if (!lib.ok || !isomorphic(fast, lib.quads)) {
    expect({ text, fast: show(fast), libraryOk: lib.ok }).toEqual({ text, fast: show(lib.quads), libraryOk: true });
  }
  return 'same';
}

const PRODUCT = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Executive Anvil',
  image: ['https://shop.example/photos/1x1/photo.jpg', '/photos/4x3/photo.jpg'],
  description: 'Sleeker than ACME\'s Classic Anvil, the Executive Anvil is perfect for the business traveler.',
  sku: '0446310786',
  mpn: 925872,
  brand: { '@type': 'Brand', name: 'ACME' },
  aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.4, reviewCount: 89 },
  offers: { '@type': 'Offer', url: 'https://shop.example/anvil', priceCurrency: 'USD', price: 119.99, priceValidUntil: '2020-11-20', availability: 'https://schema.org/InStock', itemCondition: 'https://schema.org/NewCondition' },
};

/** Documents of the subset: each must be answered, and exactly. */
const ANSWERED: Record<string, unknown> = {
  'Product with the shipped schema.org context': PRODUCT,
  'Product with an inline @vocab': { ...PRODUCT, '@context': { '@vocab': 'https://schema.org/' }, '@id': '#product' },
  'http://schema.org/ and the docs URL': [{ ...PRODUCT, '@context': 'http://schema.org/' }, { ...PRODUCT, '@context': 'https://schema.org/docs/jsonldcontext.jsonld' }],
  'shipped context then an inline one': { ...PRODUCT, '@context': ['https://schema.org', { '@language': 'en', ex: 'http://ex.org/ns#' }], 'ex:note': 'n' },
  'aliases id and type of the shipped context': { '@context': 'https://schema.org', id: 'https://shop.example/#org', type: 'Organization', url: 'https://shop.example/', sameAs: ['https://twitter.com/shop', 'https://www.facebook.com/shop'], logo: '/logo.png' },
  'BreadcrumbList with an itemListElement array': {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [1, 2, 3].map((i) => ({ '@type': 'ListItem', position: i, name: `Level ${i}`, item: `https://shop.example/l${i}` })),
  },
  'NewsArticle with author, publisher and dates': {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: 'Title',
    image: ['https://example.com/photos/1x1/photo.jpg'],
    datePublished: '2015-02-05T08:00:00+08:00',
    author: [{ '@type': 'Person', name: 'Jane Doe', url: 'https://example.com/profile/janedoe123' }],
    publisher: { '@type': 'Organization', name: 'The Daily', logo: { '@type': 'ImageObject', url: 'https://example.com/logo.png' } },
    mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://example.com/article' },
  },
  'a top-level @graph is the default graph': { '@context': { '@vocab': 'http://schema.org/' }, '@graph': [{ '@id': '#a', '@type': 'Thing', name: 'a' }, { '@id': '#b', knows: { '@id': '#a' } }] },
  'a top-level @graph with one object': { '@context': 'https://schema.org', '@graph': { '@type': 'WebSite', name: 'w' } },
  'a top-level array with a context per element': [
    { '@context': { '@vocab': 'http://a.example/' }, '@id': 'http://x.example/1', p: 'x' },
    { '@context': { '@vocab': 'http://b.example/' }, '@id': 'http://x.example/1', p: 'y' },
  ],
  'no context: absolute IRIs only': { '@id': 'http://x.example/s', '@type': 'http://x.example/T', 'http://x.example/p': [{ '@id': 'http://x.example/o' }, 'lit'] },
  'prefixes, terms, coercions and a default language': {
    '@context': {
      '@language': 'en-GB',
      foaf: 'http://xmlns.com/foaf/0.1/',
      xsd: 'http://www.w3.org/2001/XMLSchema#',
      name: 'foaf:name',
      homepage: { '@id': 'foaf:homepage', '@type': '@id' },
      kind: { '@id': 'http://x.example/kind', '@type': '@vocab' },
      born: { '@id': 'http://x.example/born', '@type': 'xsd:date' },
      age: { '@id': 'http://x.example/age', '@type': 'xsd:decimal' },
      '@vocab': 'http://x.example/v/',
    },
    '@id': '_:me',
    '@type': ['foaf:Person', 'Agent'],
    name: 'Me',
    homepage: '../home',
    kind: 'Human',
    born: '1970-01-01',
    age: [42, 4.5, true],
    'foaf:knows': { '@id': '_:me' },
    'og:title': 'unknown prefix: an absolute IRI',
  },
  'value objects': {
    '@context': { '@vocab': 'http://x.example/', '@language': 'fr', xsd: 'http://www.w3.org/2001/XMLSchema#' },
    '@id': 'http://x.example/s',
    a: { '@value': 'plain (no default language)' },
    b: { '@value': 'en', '@language': 'EN-us' },
    c: { '@value': '2020-01-01', '@type': 'xsd:date' },
    d: { '@value': 'x', '@type': 'Custom' },
    e: { '@value': 7 },
    f: { '@value': false },
    g: { '@value': null },
  },
  'numbers and nulls': { '@context': { '@vocab': 'http://x.example/' }, '@id': 'http://x.example/n', i: [0, -0, 1, -17, 999999999999999, 1.0, 1.5, 1e300, -0.25, 1e-7, 123456.789], n: null, m: [null, 'x'], e: [] },
  'nested blank nodes, references': { '@context': { '@vocab': 'http://x.example/' }, a: { b: { c: 'deep' } }, r: { '@id': 'other' }, t: { '@type': 'T' } },
  'relative IRIs against the base': { '@context': { '@vocab': 'http://x.example/', link: { '@id': 'http://x.example/link', '@type': '@id' } }, '@id': '', link: ['?q=2', '#frag', '//other.example/x', '../../up', '.', 'a b'.replace(' ', '%20')] },
  'a Yoast-style @graph (a coerced IRI template is dropped, as the library drops it)': readFileSync(new URL('../fixtures/rdf/jsonld-yoast-graph.json', import.meta.url), 'utf8'),
  'coerced strings that are no valid IRI are dropped': {
    '@context': { '@vocab': 'http://x.example/', link: { '@id': 'http://x.example/link', '@type': '@id' }, kind: { '@id': 'http://x.example/kind', '@type': '@vocab' } },
    '@id': 'http://x.example/s',
    link: ['a b', 'https://x.example/?s={q}', 'ok', ' http://x.example/lead'],
    kind: ['Good', 'Bad{x}', 'http://x.example/a b'],
  },
  'escaped surrogate pairs (PHP json_encode writes emoji so)': '{"@context":{"@vocab":"http://x.example/"},"@id":"http://x.example/e","p":"a\\ud83d\\ude00b","\\ud83d\\ude00":"key","q":"\\uD83D\\uDE00\\u00e9"}',
  'a 16-digit integer below 2^53': '{"@context":{"@vocab":"http://x.example/"},"@id":"http://x.example/n","i":9007199254740991,"d":1.5}',
  'a byte-order mark and whitespace': `\uFEFF \n${JSON.stringify({ '@context': { '@vocab': 'http://x.example/' }, '@id': 'http://x.example/bom', p: 'v' })}\n `,
};

/** Documents outside the subset: the fast path must decline (the library then parses them as before). */
const DECLINED: Record<string, string> = {
  '@reverse': '{"@context":{"@vocab":"http://x.example/"},"@id":"http://x.example/s","@reverse":{"p":{"@id":"http://x.example/o"}}}',
  '@nest': '{"@context":{"@vocab":"http://x.example/"},"@nest":{"p":"v"}}',
  '@included': '{"@context":{"@vocab":"http://x.example/"},"@included":[{"p":"v"}]}',
  '@index in a node': '{"@context":{"@vocab":"http://x.example/"},"@index":"i","p":"v"}',
  '@list object': '{"@context":{"@vocab":"http://x.example/"},"p":{"@list":["a","b"]}}',
  '@set object': '{"@context":{"@vocab":"http://x.example/"},"p":{"@set":["a","b"]}}',
  '@container in a term': '{"@context":{"p":{"@id":"http://x.example/p","@container":"@list"}},"p":["a"]}',
  '@json': '{"@context":{"p":{"@id":"http://x.example/p","@type":"@json"}},"p":{"a":1}}',
  '@direction': '{"@context":{"@vocab":"http://x.example/","@direction":"rtl"},"p":"v"}',
  'scoped context': '{"@context":{"p":{"@id":"http://x.example/p","@context":{"@vocab":"http://y.example/"}}},"p":{"q":"v"}}',
  'protected term': '{"@context":{"@protected":true,"p":"http://x.example/p"},"p":"v"}',
  '@import': '{"@context":{"@import":"https://schema.org"},"name":"v"}',
  '@propagate': '{"@context":{"@propagate":false,"@vocab":"http://x.example/"},"p":"v"}',
  '@base in a context': '{"@context":{"@base":"http://other.example/","@vocab":"http://x.example/"},"@id":"s","p":"v"}',
  'a null context': '{"@context":[{"@vocab":"http://x.example/"},null],"p":"v"}',
  'an unknown remote context': '{"@context":"http://unknown.example/ctx","p":"v"}',
  'a nested context': '{"@context":{"@vocab":"http://x.example/"},"p":{"@context":{"@vocab":"http://y.example/"},"q":"v"}}',
  'a named graph': '{"@context":{"@vocab":"http://x.example/"},"@id":"http://x.example/g","@graph":[{"p":"v"}]}',
  '@graph in an array element': '[{"@context":{"@vocab":"http://x.example/"},"@graph":[{"p":"v"}]}]',
  'a key that is not an IRI': '{"@id":"http://x.example/s","name":"v"}',
  'a key mapping to a blank node': '{"@context":{"p":"_:b"},"p":"v"}',
  'a blank-node property': '{"_:p":"v"}',
  'an unknown keyword': '{"@context":{"@vocab":"http://x.example/"},"@foo":"x","p":"v"}',
  'an IRI with a space': '{"@context":{"@vocab":"http://x.example/"},"@id":"http://x.example/a b","p":"v"}',
  'a repeated key': '{"@context":{"@vocab":"http://x.example/"},"p":"a","p":"b"}',
  'an integer past 2^53': '{"@context":{"@vocab":"http://x.example/"},"p":12345678901234567890}',
  'a non-finite number': '{"@context":{"@vocab":"http://x.example/"},"p":1e400}',
  'an escaped lone surrogate': '{"@context":{"@vocab":"http://x.example/"},"p":"\\ud83d x"}',
  'an escaped lone low surrogate after an escaped backslash': '{"@context":{"@vocab":"http://x.example/"},"p":"\\\\ud83d\\ude00"}',
  'invalid JSON': '{"@context":{"@vocab":"http://x.example/"},"p":',
  'a top-level string': '"x"',
  'an array in an array': '{"@context":{"@vocab":"http://x.example/"},"p":[["a"]]}',
  'a nested node stating nothing': '{"@context":{"@vocab":"http://x.example/"},"p":{"q":null}}',
  'an invalid language tag': '{"@context":{"@vocab":"http://x.example/"},"p":{"@value":"v","@language":"en_GB"}}',
  'a term without @id': '{"@context":{"@vocab":"http://x.example/","p":{"@type":"@id"}},"p":"v"}',
  'a term defined as null': '{"@context":{"@vocab":"http://x.example/","p":null},"p":"v"}',
  'a term that is an IRI': '{"@context":{"http://x.example/p":{"@type":"@id"}},"http://x.example/p":"v"}',
  'a relative @vocab': '{"@context":{"@vocab":"terms/"},"p":"v"}',
  'a key named like an Object.prototype member': '{"@context":{"@vocab":"http://x.example/"},"constructor":"v"}',
  'a colliding @id alias': '{"@context":"https://schema.org","@id":"http://x.example/a","id":"http://x.example/b","name":"v"}',
  'a value object with a number and @type': '{"@context":{"@vocab":"http://x.example/"},"p":{"@value":5,"@type":"http://x.example/T"}}',
  'an empty object as a value (the library mixes up its blank node)': '{"@context":{"@vocab":"http://x.example/"},"e":{},"r":{"@id":"other"}}',
  'too large': `{"@context":{"@vocab":"http://x.example/"},"p":"${'x'.repeat(70_000)}"}`,
};

describe('jsonld-fast: hand-written cases', () => {
  it.each(Object.entries(ANSWERED))('answers exactly: %s', async (_name, doc) => {
    const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
    expect(await compare(text)).toBe('same');
  });

  it.each(Object.entries(DECLINED))('declines: %s', async (_name, text) => {
    expect(convertJsonLd(text, BASE, config)).toBeNull();
  });

  it('declines a document with no base to resolve a relative IRI against', async () => {
    expect(convertJsonLd('{"@context":{"@vocab":"http://x.example/"},"@id":"rel","p":"v"}', '', config)).toBeNull();
  });

  it('serves contexts given in the options like the library (they win over shipped ones)', async () => {
    const contexts = new Map([['https://schema.org', { '@context': { name: 'http://ctx.example/name' } }]]);
    const own = resolveParseOptions({ contexts });
    const text = '{"@context":"https://schema.org","@id":"http://a.example/x","name":"n"}';
    const fast = convertJsonLd(text, BASE, own);
    expect(fast?.map((q) => q.predicate.value)).toEqual(['http://ctx.example/name']);
  });
});

describe('jsonld-fast: the simulated web', () => {
  it('answers every JSON-LD block and document of the simweb profiles exactly (decline rate 0 for schema.org blocks)', async () => {
    const corpus = simwebJsonLd(2);
    let declined = 0;
    const declinedEmbedded: string[] = [];
    for (const { url, text, embedded } of corpus) {
      if ((await compare(text, url)) === 'declined') {
        declined++;
        if (embedded) declinedEmbedded.push(url);
      }
    }
    expect(corpus.filter((d) => d.embedded).length).toBeGreaterThan(50);
    expect(corpus.filter((d) => !d.embedded).length).toBeGreaterThan(20);
    expect(declinedEmbedded).toEqual([]);
    expect(declined).toBe(0);
  }, 120_000);
});

describe('jsonld-fast: random documents in and just outside the subset', () => {
  it('declines or agrees with the library on 3,000 seeded documents', async () => {
    let answered = 0;
    const N = 3000;
    for (let seed = 1; seed <= N; seed++) {
      const { text, base } = generateDocument(seed);
      if ((await compare(text, base)) === 'same') answered++;
    }
    // Both sides of the boundary are exercised: most documents answered, a fair share declined.
    expect(answered).toBeGreaterThan(N * 0.4);
    expect(answered).toBeLessThan(N * 0.95);
  }, 300_000);
});

/** Runs `f` with the fast path off, then on; returns both results. */
async function bothWays<T>(f: (opts: ParseOptions) => Promise<T>): Promise<{ before: T; after: T }> {
  const before = await f(LIBRARY);
  const after = await f({ jsonLdFastPath: true });
  return { before, after };
}

describe('jsonld-fast: what the crawl gets is unchanged', () => {
  const block = (i: number) => JSON.stringify({ ...PRODUCT, name: `Anvil ${i}`, '@id': `#p${i}` });
  const html = `<html><head><script type="application/ld+json">${block(1)}</script>
    <script type="application/ld+json">{"@context":"http://unknown.example/c","name":"x"}</script>
    <script type="application/ld+json">${block(2)}</script>
    <script type="application/ld+json">{"@context":{"@vocab":"http://x.example/"},"p":{"@list":["a"]}}</script>
    <script type="application/ld+json">{"broken": </script></head>
    <body><div itemscope itemtype="https://schema.org/Person"><span itemprop="name">P</span></div></body></html>`;

  it('parseEmbedded: the same quads, blocks, problems and lines, blank nodes distinct per block', async () => {
    const { before, after } = await bothWays((o) => parseEmbedded(html, 'http://shop.example/page', o));
    expect(isomorphic(after.quads, before.quads)).toBe(true);
    expect(after.quads.length).toBe(before.quads.length);
    expect(after.embedded).toEqual(before.embedded);
    expect(after.problems).toEqual(before.problems);
    expect(after.problems?.map((p) => p.code)).toEqual(['RDFSCOUT_REMOTE_CONTEXT', 'RDFSCOUT_PARSE_FAILED']);
    const blanks = new Set(after.quads.flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === 'BlankNode').map((t) => t.value));
    const blanksBefore = new Set(before.quads.flatMap((q) => [q.subject, q.object]).filter((t) => t.termType === 'BlankNode').map((t) => t.value));
    expect(blanks.size).toBe(blanksBefore.size);
    expect(blanks.size).toBeGreaterThan(6); // brand, rating, offers of two blocks and the microdata person
  });

  it('parseDocument and the crawl path (parseRdfDocumentInto with a re-readable source): the same quads', async () => {
    const text = JSON.stringify({ '@context': 'https://schema.org', '@graph': [PRODUCT, { ...PRODUCT, '@id': 'http://shop.example/p2' }] });
    const detected = { kind: 'rdf', mediaType: 'application/ld+json' } as const;
    const doc = await bothWays((o) => parseDocument(text, detected, 'http://shop.example/doc.jsonld', o));
    expect(doc.after.error).toBeNull();
    expect(isomorphic(doc.after.quads, doc.before.quads)).toBe(true);
    const into = await bothWays(async (o) => {
      const quads: Quad[] = [];
      const chunks = () => (async function* () { yield text.slice(0, 100); yield text.slice(100); })();
      const r = await parseRdfDocumentInto(chunks, 'application/ld+json', 'http://shop.example/doc.jsonld', { add: (q) => quads.push(q), restart: async () => { quads.length = 0; } }, o);
      return { ...r, quads };
    });
    expect(into.after.error).toBeNull();
    expect(into.after.count).toBe(into.before.count);
    expect(isomorphic(into.after.quads, into.before.quads)).toBe(true);
    expect(isomorphic(into.after.quads, doc.after.quads)).toBe(true);
  });

  it('a reading that fails (a body that cannot be decoded) is the same problem as before, never a rejection', async () => {
    const failing = () =>
      (async function* () {
        yield '{"@context": {"@vocab": "http://x.example/"}, ';
        throw new Error('decode failed');
      })();
    const { before, after } = await bothWays((o) => parseRdfDocumentInto(failing, 'application/ld+json', BASE, { add: () => {}, restart: async () => {} }, o));
    expect(after).toEqual(before);
    expect(after.error?.message).toContain('decode failed');
  });

  it('the quad limit fails the page as before (the same problem), with what came before it as partial', async () => {
    const { before, after } = await bothWays((o) => parseEmbedded(html, 'http://shop.example/page', { ...o, maxQuads: 25 }));
    expect(after.error).toEqual(before.error);
    expect(after.error?.message).toContain('more than 25 quads');
    expect(after.quads).toEqual([]);
    expect(after.partial.length).toBe(before.partial.length);
  });

  it('the CPU time budget holds: a clock that runs out fails the document with the parser\'s message', async () => {
    const text = block(3);
    let t = 0;
    const budget = createBudget(1000, 5, () => (t += 10));
    const r = await parseRdfText(text, 'application/ld+json', BASE, config, budget, new BlankNodeRelabeller('x_'));
    expect(r.budgetExceeded).toBe(true);
    expect(r.problem?.message).toContain('more than 5 ms of CPU time');
  });
});

describe('jsonld-fast: the IRI check', () => {
  it('isValidIri agrees with jsonld-context-parser\'s regular expression on 20,000 generated strings', () => {
    const rng = new Prng(7);
    const parts = ['http', 'https', 'a', 'Z9', 'a+b', 'a,b', 'a-b.c', '_', '9a', '', ':', '//', '/', '#', '##', ' ', '"', '<', '>', '{', '}', '|', '\\', '[', ']', '`', '^', '%20', 'é', '\n', 'x', '?q=1', '@', '+', '.', '*'];
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      const n = rng.int(0, 6);
      for (let k = 0; k < n; k++) s += rng.pick(parts);
      expect([s, isValidIri(s)]).toEqual([s, ContextUtil.isValidIri(s)]);
    }
  });
});

describe('shipped and given contexts are served frozen, without a copy per document', () => {
  it('the library changes nothing in them: the shipped schema.org context is as on disk after thousands of parses', async () => {
    const doc = shippedContextDocument('https://schema.org') as Record<string, unknown>;
    expect(Object.isFrozen(doc) && Object.isFrozen(doc['@context'])).toBe(true);
    for (let seed = 1; seed <= 300; seed++) await library(generateDocument(seed).text, BASE);
    expect(doc).toEqual(JSON.parse(readFileSync(new URL('schema.org.jsonld', CONTEXTS_DIR), 'utf8')));
  });

  it('a given context that the context parser rewrites (@reverse, containers, scoped, protected, @prefix, term languages) parses as the same context inline', async () => {
    const context = {
      '@vocab': 'http://x.example/',
      rev: { '@reverse': 'http://x.example/rev' },
      list: { '@id': 'http://x.example/list', '@container': '@list' },
      langs: { '@id': 'http://x.example/langs', '@container': '@language' },
      scoped: { '@id': 'http://x.example/scoped', '@context': { '@vocab': 'http://y.example/' } },
      prot: { '@id': 'http://x.example/prot', '@protected': true },
      pre: { '@id': 'http://x.example/pre/', '@prefix': true },
      de: { '@id': 'http://x.example/de', '@language': 'DE' },
      T: { '@id': 'http://x.example/T', '@context': { q: 'http://z.example/q' } },
    };
    const body = { '@id': 'http://x.example/s', '@type': 'T', q: 1, rev: { '@id': 'http://x.example/o' }, list: ['a', 'b'], langs: { en: 'x', fr: 'y' }, scoped: { p: 'v' }, prot: 'p', 'pre:x': 'px', de: 'hallo' };
    const given = resolveParseOptions({ contexts: new Map([['http://ctx.example/c', { '@context': context }]]) });
    const parse = async (doc: unknown, cfg: typeof config) => {
      return await parseRdfText(JSON.stringify(doc), 'application/ld+json', BASE, resolveParseOptions({ ...cfg, jsonLdFastPath: false }), createBudget(1000, 30_000), new BlankNodeRelabeller('x_'));
    };
    for (let i = 0; i < 3; i++) {
      const remote = await parse({ '@context': 'http://ctx.example/c', ...body }, given);
      const inline = await parse({ '@context': context, ...body }, config);
      expect(remote.problem).toBeNull();
      expect(inline.problem).toBeNull();
      expect(remote.quads.length).toBeGreaterThan(10);
      expect(isomorphic(remote.quads, inline.quads)).toBe(true);
    }
  });
});
