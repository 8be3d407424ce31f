// Whole small texts: parsed in one call, they give exactly what the streaming path gives (forced here
// with `wholeTextChars: 0`): the same quads in the same order with the same blank-node labels, the same problems,
// the same partial output, the quad limit cutting at the same quad. Corpus: every RDF document and every HTML page
// with embedded RDF of the simulated web (all profiles, at half their size: ~9,000 documents; scale 1, ~18,000, passed
// too, in ~60 CPU s), plus hand-written edge cases. Both sides parse strictly (all or nothing), the path these
// tests compare; the lenient Turtle reader is compared with the strict one in lenient-n3.test.ts.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Quad, Term } from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { chooseCharset, decodeChunks, decodeText } from '../../src/fetch/index.ts';
import { detectType, type ParseOptions, parseDocument, parseEmbedded, parseRdfDocumentInto, resolveParseOptions } from '../../src/rdf/index.ts';
import type { ParsedDocument } from '../../src/rdf/index.ts';
import { parseEmbeddedWith } from '../../src/rdf/parse-embedded.ts';
import { parseRdfText } from '../../src/rdf/parse-formats.ts';
import { BlankNodeRelabeller, blankNodePrefix, createBudget, runParserOnChunks, type StreamingParser, type TextInput } from '../../src/rdf/run-parser.ts';
import { parseN3Whole, takeWholeText, WHOLE_TEXT_CHARS } from '../../src/rdf/whole-text.ts';
import { buildWeb, respond } from '../../src/simweb/index.ts';
import { docUrl } from '../../src/simweb/web.ts';

const STREAM: ParseOptions = { wholeTextChars: 0 };

/** A term with everything that tells two terms apart (literal datatype, language and direction; nested quads). */
function termKey(t: Term): string {
  switch (t.termType) {
    case 'Literal':
      return `L${JSON.stringify([t.value, t.language, t.datatype.value, (t as { direction?: string }).direction ?? ''])}`;
    case 'Quad':
      return `<<${quadKey(t as unknown as Quad)}>>`;
    default:
      return `${t.termType}:${t.value}`;
  }
}
const quadKey = (q: Quad): string => [q.subject, q.predicate, q.object, q.graph].map(termKey).join(' ');
const keys = (qs: readonly Quad[]): string[] => qs.map(quadKey);

/** Everything a caller of parseDocument/parseEmbedded sees, with the quads as exact keys. */
function view(d: ParsedDocument) {
  return { quads: keys(d.quads), error: d.error, partial: keys(d.partial), embedded: d.embedded, problems: d.problems };
}

async function bothDocument(text: string, mediaType: string | 'html', base: string, opts: ParseOptions = {}) {
  const detected = mediaType === 'html' ? ({ kind: 'html' } as const) : ({ kind: 'rdf', mediaType } as const);
  const streamed = view(await parseDocument(text, detected, base, { strict: true, ...opts, ...STREAM }));
  const whole = view(await parseDocument(text, detected, base, { strict: true, ...opts }));
  return { streamed, whole };
}

/** The crawl's way: the body decoded slice by slice into a target (see analyse-document.ts). */
async function viaTarget(input: () => TextInput, mediaType: string, base: string, opts: ParseOptions) {
  const quads: Quad[] = [];
  const target = {
    add: (q: Quad) => quads.push(q),
    drained: async () => {},
    restart: async () => {
      quads.length = 0;
    },
  };
  const r = await parseRdfDocumentInto(input, mediaType, base, target, { strict: true, ...opts });
  return { count: r.count, error: r.error, quads: keys(quads) };
}

/** `expect(a).toEqual(b)` for plain data, through JSON first (vitest's deep equality is slow on 100k quads). */
function expectEqual(a: unknown, b: unknown): void {
  if (JSON.stringify(a) !== JSON.stringify(b)) expect(a).toEqual(b);
}

async function expectSame(text: string, mediaType: string | 'html', base: string, opts: ParseOptions = {}) {
  const { streamed, whole } = await bothDocument(text, mediaType, base, opts);
  expectEqual(whole, streamed);
  return whole;
}

describe('the simulated web, all profiles: parsed whole = streamed', () => {
  const web = buildWeb({ profiles: 'all', seed: 1, scale: 0.5 });
  // JSON-LD documents are left out: wholeTextChars does not change how they are parsed (their scripts in HTML pages
  // are in: the pages are). Duplicates are in (the same body under another IRI: other blank-node labels).
  const docs = web.sites.flatMap((site) =>
    site.docs.filter((d) => (d.kind === 'rdf' && d.format !== 'jsonld') || (d.kind === 'html' && d.embed !== undefined)).map((d) => docUrl(site, d)),
  );

  it('every RDF document and every page with embedded RDF, through parseDocument and the crawl path', { timeout: 300_000 }, async () => {
    const seen = new Map<string, number>();
    let quads = 0;
    let wholeTaken = 0;
    for (const url of docs) {
      const res = respond(web, url);
      expect(res.status).toBe(200);
      const contentType = res.headers['content-type'] ?? null;
      const detected = detectType(res.body, contentType, url);
      if (detected.kind === 'other') continue;
      const kind = detected.kind === 'html' ? 'html' : detected.mediaType;
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
      const { text } = decodeText(res.body, contentType);
      const doc = await expectSame(text, kind, url);
      expect(doc.error).toBeNull();
      quads += doc.quads.length;
      if (detected.kind === 'rdf') {
        const charset = chooseCharset(res.body, contentType);
        const read = () => decodeChunks(res.body, charset);
        const whole = await viaTarget(read, detected.mediaType, url, {});
        expectEqual(whole, { count: doc.quads.length, error: null, quads: doc.quads }); // = parseDocument streamed, above
        if (detected.mediaType === 'text/turtle' || detected.mediaType === 'application/n-triples') {
          // The synchronous parser takes every such document of the web (it declines none).
          const target = { add: () => {} };
          const run = await parseN3Whole(text, detected.mediaType, url, new BlankNodeRelabeller('x'), createBudget(1e6, 30_000), target);
          expect(run).toEqual({ count: doc.quads.length, error: null });
          wholeTaken++;
        }
      }
    }
    expect(seen.get('text/turtle')).toBeGreaterThan(2500);
    expect(seen.get('application/rdf+xml')).toBeGreaterThan(3500);
    expect(seen.get('application/n-triples')).toBeGreaterThan(20);
    expect(seen.get('html')).toBeGreaterThan(1500);
    expect(seen.get('application/ld+json')).toBeUndefined();
    expect(wholeTaken).toBeGreaterThan(2500);
    expect(quads).toBeGreaterThan(50_000);
  });
});

const BASE = 'http://ex.org/dir/doc.ttl';

describe('Turtle family: parsed whole = streamed', () => {
  const cases: Array<[string, string, string]> = [
    ['empty', 'text/turtle', ''],
    ['whitespace only', 'text/turtle', '  \n\t\n'],
    ['a comment without a final newline', 'text/turtle', '<a> <b> <c> .\n# the end'],
    ['a BOM', 'text/turtle', '\ufeff<a> <b> <c> .\n'],
    ['two BOMs', 'text/turtle', '\ufeff\ufeff<a> <b> <c> .\n'],
    ['only a BOM', 'text/turtle', '\ufeff'],
    ['no final newline', 'text/turtle', '@prefix ex: <http://ex.org/> .\nex:a ex:b ex:c .\nex:a ex:b ex:d .'],
    [
      'relative IRIs and @base changes',
      'text/turtle',
      '<> <#p> <x> .\n<../up> <?q=1> <#f> .\n@base <http://other.org/a/b/> .\n<c> <../d> <//host/e> .\nBASE <sub/>\n<f> <g> <h> .\n',
    ],
    [
      'blank nodes, lists, nested property lists',
      'text/turtle',
      '@prefix ex: <http://ex.org/> .\n_:x ex:p [ ex:q [ ex:r 1 ] ; ex:s ( 1 [ ex:t 2 ] ( ) "z" ) ] .\n_:x ex:u _:y .\n_:y ex:v _:x .\n[] ex:w [] .\n',
    ],
    [
      'literals: languages, datatypes, long strings, escapes',
      'text/turtle',
      '@prefix ex: <http://ex.org/> .\nex:a ex:b "x"@en-GB, "y"^^ex:dt, 1, 1.5, 1e3, true, """multi\nline "quoted" """, \'\'\'single\'\'\', "\\u00e9\\U0001F600\\t" .\n',
    ],
    ['a lone surrogate in a literal', 'text/turtle', '<http://a> <http://b> "x\ud800y" .\n'],
    ['astral characters', 'text/turtle', '<http://a> <http://b> "😀 𝄞" .\n'],
    ['prefixes redefined', 'text/turtle', '@prefix p: <http://one/> .\np:a p:b p:c .\n@prefix p: <http://two/> .\np:a p:b p:c .\nPREFIX : <http://three/>\n:a :b :c .\n'],
    ['N-Triples', 'application/n-triples', '<http://a/s> <http://a/p> "o" .\n_:b0 <http://a/p> _:b1 .\n_:b1 <http://a/p> "x"@en .\n'],
    ['N-Quads', 'application/n-quads', '<http://a/s> <http://a/p> "o" <http://a/g> .\n_:b0 <http://a/p> _:b1 _:g .\n<http://a/s> <http://a/p> _:b0 .\n'],
    ['TriG', 'application/trig', '@prefix ex: <http://ex.org/> .\nex:g { ex:a ex:b [ ex:c 1 ] }\nGRAPH _:h { ex:a ex:b ex:c }\n{ ex:d ex:e ex:f }\n'],
    ['N3 formulas', 'text/n3', '@prefix ex: <http://ex.org/> .\n{ ?x ex:p ?y } => { ?y ex:q ?x } .\nex:a ex:b { ex:c ex:d [ ex:e 1 ] } .\n:local :name "n" .\n'],
    ['RDF 1.2 triple terms', 'text/turtle', '@prefix ex: <http://ex.org/> .\nex:a ex:b <<( ex:c ex:d _:e )>> .\n<< ex:s ex:p ex:o >> ex:q "r" .\n'],
    ['a syntax error on line 3', 'text/turtle', '@prefix ex: <http://ex.org/> .\nex:a ex:b ex:c .\nex:a ex:b "never closed .\nex:d ex:e ex:f .\n'],
    ['an undefined prefix on line 2', 'text/turtle', '<http://a> <http://b> [ <http://c> 1 ] .\nnope:a <http://b> <http://c> .\n'],
    ['a missing final dot', 'text/turtle', '<http://a> <http://b> <http://c> .\n<http://a> <http://b> <http://d>'],
    ['an error in N-Triples on line 2', 'application/n-triples', '<http://a/s> <http://a/p> "o" .\n<http://a/s> <http://a/p> bad .\n'],
    ['an error in an N3 formula', 'text/n3', '@prefix ex: <http://ex.org/> .\nex:a ex:b ex:c .\n{ ex:a ex:b\n'],
  ];
  for (const [name, mediaType, text] of cases) {
    it(name, async () => {
      const doc = await expectSame(text, mediaType, BASE);
      if (name.includes('error') || name.includes('missing') || name.includes('undefined')) expect(doc.error).not.toBeNull();
    });
  }

  it('errors keep their code, message and line', async () => {
    const doc = await expectSame('@prefix ex: <http://ex.org/> .\nex:a ex:b ex:c .\nex:a ex:b "never closed .\n', 'text/turtle', BASE);
    expect(doc.error).toMatchObject({ code: 'RDFSCOUT_PARSE_FAILED', line: 3 });
    expect(doc.error?.message).toMatch(/^Invalid text\/turtle: /);
    expect(doc.partial).toHaveLength(1);
    const nt = await expectSame('<http://a/s> <http://a/p> "o" .\n<http://a/s> <http://a/p> bad .\n', 'application/n-triples', BASE);
    expect(nt.error?.line).toBe(2);
  });

  it('a lone surrogate comes out as U+FFFD either way', async () => {
    const doc = await expectSame('<http://a> <http://b> "x\ud800y" .\n', 'text/turtle', BASE);
    expect(doc.quads[0]).toContain('x\ufffdy');
  });

  it('the quad limit cuts at the same quad: a document at the limit passes, one over fails with the same partial output', async () => {
    const text = `@prefix ex: <http://ex.org/> .\n${Array.from({ length: 12 }, (_, i) => `ex:s${i} ex:p [ ex:q ${i} ] .`).join('\n')}\n`;
    const at = await expectSame(text, 'text/turtle', BASE, { maxQuads: 24 });
    expect(at.error).toBeNull();
    expect(at.quads).toHaveLength(24);
    const over = await expectSame(text, 'text/turtle', BASE, { maxQuads: 23 });
    expect(over.error?.message).toMatch(/more than 23 quads/);
    expect(over.partial).toEqual(at.quads.slice(0, 23));
  });

  it('texts of exactly wholeTextChars characters and one more give the same as streaming', async () => {
    const line = (i: number) => `<http://ex.org/s${i}> <http://ex.org/p> "${'v'.repeat(40)}" .\n`;
    let text = '';
    for (let i = 0; text.length < WHOLE_TEXT_CHARS; i++) text += line(i);
    text = text.slice(0, WHOLE_TEXT_CHARS - 1).replace(/[^\n]*$/, '');
    text += '#'.repeat(WHOLE_TEXT_CHARS - 1 - text.length);
    text += '\n';
    expect(text).toHaveLength(WHOLE_TEXT_CHARS);
    const exact = await expectSame(text, 'application/n-triples', BASE);
    const longer = await expectSame(`${text} `, 'application/n-triples', BASE);
    expect(exact.quads.length).toBeGreaterThan(500);
    expect(longer.quads).toEqual(exact.quads);
    const taken = takeWholeText(text, WHOLE_TEXT_CHARS);
    expect(taken.text).toBe(text);
    expect(takeWholeText(`${text} `, WHOLE_TEXT_CHARS).text).toBeNull();
  });

  it('a body in several pieces (decoded slice by slice) is taken whole when small, and streamed as it came otherwise', async () => {
    const pieces = ['@prefix ex: <http://ex.org/> .\nex:a ', 'ex:b [ ex:c "d\u00e9" ] .\n', 'ex:e ex:f ex:g .\n'];
    const sync = () => pieces.values();
    const whole = await viaTarget(sync, 'text/turtle', BASE, {});
    expect(whole).toEqual(await viaTarget(sync, 'text/turtle', BASE, STREAM));
    expect(whole.count).toBe(3);
    const asyncPieces = async function* () {
      yield* pieces;
    };
    expect(await viaTarget(asyncPieces, 'text/turtle', BASE, {})).toEqual(whole);
    const broken = ['<http://a> <http://b> <http://c> .\n', '<http://a> <http://b> oops .\n'];
    const failed = await viaTarget(() => broken.values(), 'text/turtle', BASE, {});
    expect(failed).toEqual(await viaTarget(() => broken.values(), 'text/turtle', BASE, STREAM));
    expect(failed.error?.line).toBe(2);
  });
});

describe('RDF/XML: parsed whole = streamed', () => {
  const RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"';
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['a BOM', `\ufeff<?xml version="1.0"?>\n<rdf:RDF ${RDF} xmlns:ex="http://ex.org/"><rdf:Description rdf:about="#a"><ex:p>v</ex:p></rdf:Description></rdf:RDF>\n`],
    [
      'blank nodes, parseType Resource and Collection, xml:base, languages',
      `<?xml version="1.0"?>\n<rdf:RDF ${RDF} xmlns:ex="http://ex.org/" xml:base="http://base.org/x/">\n<rdf:Description rdf:nodeID="n1"><ex:p rdf:parseType="Resource"><ex:q xml:lang="fr">oui</ex:q></ex:p>\n<ex:list rdf:parseType="Collection"><rdf:Description rdf:about="a"/><rdf:Description/></ex:list></rdf:Description>\n<rdf:Description rdf:about="../y"><ex:r rdf:nodeID="n1"/><ex:s><rdf:Description><ex:t rdf:datatype="http://www.w3.org/2001/XMLSchema#int">1</ex:t></rdf:Description></ex:s></rdf:Description>\n</rdf:RDF>\n`,
    ],
    ['a node element as root (wrapped)', `<?xml version="1.0"?>\n<foaf:Person ${RDF} xmlns:foaf="http://xmlns.com/foaf/0.1/" rdf:about="#me">\n<foaf:name>Me</foaf:name>\n<foaf:knows><foaf:Person/></foaf:knows>\n</foaf:Person>\n`],
    ['an error on line 3', `<?xml version="1.0"?>\n<rdf:RDF ${RDF} xmlns:ex="http://ex.org/">\n<rdf:Description rdf:about="#a"><ex:p>v</ex:q></rdf:Description>\n</rdf:RDF>\n`],
    ['the root never closed (the parser accepts it)', `<?xml version="1.0"?>\n<rdf:RDF ${RDF} xmlns:ex="http://ex.org/">\n<rdf:Description rdf:about="#a"><ex:p>v</ex:p></rdf:Description>\n`],
    ['an error in a wrapped root', `<?xml version="1.0"?>\n<ex:Thing ${RDF} xmlns:ex="http://ex.org/" rdf:about="#t">\n<ex:p>v</ex:p>\n<ex:q rdf:resource="x"></ex:p>\n</ex:Thing>\n`],
    [
      'internal entities within the limit',
      `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY ex "http://ex.org/">\n]>\n<rdf:RDF ${RDF} xmlns:ex="&ex;"><rdf:Description rdf:about="&ex;a"><ex:p>&ex;</ex:p></rdf:Description></rdf:RDF>\n`,
    ],
    ['an external entity (refused)', `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY x SYSTEM "file:///etc/passwd">\n]>\n<rdf:RDF ${RDF}><rdf:Description rdf:about="#a"/></rdf:RDF>\n`],
    ['not XML at all', 'this is not XML\n'],
  ];
  for (const [name, text] of cases) {
    it(name, async () => {
      const doc = await expectSame(text, 'application/rdf+xml', 'http://ex.org/doc.rdf');
      if (name.includes('error') || name.includes('refused') || name.includes('not XML')) expect(doc.error).not.toBeNull();
      else if (name !== 'empty') expect(doc.quads.length).toBeGreaterThan(0);
    });
  }

  it('errors keep their line; the quad limit cuts at the same quad', async () => {
    const bad = await expectSame(cases[4]![1], 'application/rdf+xml', 'http://ex.org/doc.rdf');
    expect(bad.error?.line).toBe(3);
    const refused = await expectSame(cases[8]![1], 'application/rdf+xml', 'http://ex.org/doc.rdf');
    expect(refused.error).toMatchObject({ line: 3 });
    const many = `<?xml version="1.0"?>\n<rdf:RDF ${RDF} xmlns:ex="http://ex.org/">\n${Array.from({ length: 10 }, (_, i) => `<rdf:Description rdf:about="#s${i}"><ex:p>${i}</ex:p><ex:q><rdf:Description/></ex:q></rdf:Description>`).join('\n')}\n</rdf:RDF>\n`;
    const at = await expectSame(many, 'application/rdf+xml', 'http://ex.org/doc.rdf', { maxQuads: 20 });
    expect(at.quads).toHaveLength(20);
    const over = await expectSame(many, 'application/rdf+xml', 'http://ex.org/doc.rdf', { maxQuads: 19 });
    expect(over.error?.message).toMatch(/more than 19 quads/);
    expect(over.partial).toEqual(at.quads.slice(0, 19));
  });
});

describe('HTML (RDFa, Microdata, script blocks): parsed whole = streamed', () => {
  const PAGE = 'http://ex.org/page';
  const rdfa = (n: number) =>
    `<!DOCTYPE html>\n<html prefix="foaf: http://xmlns.com/foaf/0.1/"><body>\n${Array.from({ length: n }, (_, i) => `<div about="#p${i}" typeof="foaf:Person"><span property="foaf:name">P ${i}</span><a rel="foaf:knows" href="/p${i + 1}#me">k</a><span rel="foaf:account"><span typeof="foaf:OnlineAccount" property="foaf:accountName">a${i}</span></span></div>`).join('\n')}\n</body></html>\n`;
  const microdata = (n: number) =>
    `<html><body>\n${Array.from({ length: n }, (_, i) => `<div itemscope itemtype="https://schema.org/Person" itemid="#m${i}"><span itemprop="name">M ${i}</span><div itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="addressLocality">Town ${i}</span></div></div>`).join('\n')}\n</body></html>\n`;
  const mixed = `<html><head><base href="http://base.org/dir/">\n<script type="text/turtle">\n@prefix ex: <http://ex.org/> .\nex:a ex:b [ ex:c 1 ] .\n</script>\n<script type="text/turtle">\nex:broken\n</script>\n<script type="application/ld+json">{"@id": "#j", "http://ex.org/p": {"@id": "_:x"}}</script>\n</head><body vocab="http://schema.org/">\n<div typeof="Person" about="#r"><span property="name">R</span></div>\n<div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">T</span></div>\n</body></html>\n`;
  const cases: Array<[string, string]> = [
    ['RDFa with a prefix attribute and blank nodes', rdfa(5)],
    ['Microdata, nested items', microdata(5)],
    ['scripts (one broken), a base, RDFa and Microdata on one page', mixed],
    ['a page with no RDF', '<html><body><p>plain</p><a href="/x" rel="nofollow">x</a></body></html>'],
    ['broken markup', '<html><body><div about="#x" property="http://ex.org/p">unclosed <span typeof="http://ex.org/T">\n<div itemscope><span itemprop="http://ex.org/q">v'],
  ];
  for (const [name, html] of cases) {
    it(name, async () => {
      const doc = await expectSame(html, 'html', PAGE);
      expect(doc.error).toBeNull();
    });
  }

  it('the broken script block is reported with its line either way', async () => {
    const doc = await expectSame(mixed, 'html', PAGE);
    expect(doc.problems).toEqual([expect.objectContaining({ source: 'turtle#2', line: 7 })]);
    expect(doc.embedded).toEqual(['turtle', 'jsonld', 'rdfa', 'microdata']);
  });

  it('the page quad limit cuts at the same quad across blocks', async () => {
    const all = await expectSame(mixed, 'html', PAGE);
    const n = all.quads.length;
    expect(n).toBeGreaterThan(5);
    expect((await expectSame(mixed, 'html', PAGE, { maxQuads: n })).quads).toHaveLength(n);
    for (const limit of [n - 1, 3, 1]) {
      const over = await expectSame(mixed, 'html', PAGE, { maxQuads: limit });
      expect(over.error?.message).toMatch(new RegExp(`more than ${limit} quads`));
    }
    const r = await expectSame(rdfa(5), 'html', PAGE);
    const cut = await expectSame(rdfa(5), 'html', PAGE, { maxQuads: r.quads.length - 1 });
    expect(cut.partial).toEqual(r.quads.slice(0, -1));
  });

  it('pages of exactly wholeTextChars characters and one more', async () => {
    for (const make of [rdfa, microdata]) {
      let page = make(1);
      for (let n = 2; page.length < WHOLE_TEXT_CHARS; n++) page = make(n);
      const exact = page.slice(0, WHOLE_TEXT_CHARS);
      expect(exact).toHaveLength(WHOLE_TEXT_CHARS);
      const a = await expectSame(exact, 'html', PAGE);
      const b = await expectSame(page.slice(0, WHOLE_TEXT_CHARS + 1), 'html', PAGE);
      expect(a.quads.length).toBeGreaterThan(100);
      expect(b.quads.length).toBeGreaterThanOrEqual(a.quads.length);
    }
  });
});

describe('the CPU budget', () => {
  /** A clock that moves 15 ms at each reading: every document passes a 10 ms budget at its first check. */
  const fakeBudget = () => {
    let cpu = 0;
    return createBudget(1e6, 10, () => (cpu += 15));
  };
  const ttl = `${Array.from({ length: 30 }, (_, i) => `<http://a/s${i}> <http://a/p> _:b${i % 4} .`).join('\n')}`;
  const xml = `<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">\n${Array.from({ length: 10 }, (_, i) => `<rdf:Description rdf:about="#s${i}"><ex:p>${i}</ex:p></rdf:Description>`).join('\n')}\n</rdf:RDF>`;

  it('a document past the budget fails with the same partial output either way', async () => {
    for (const [text, mediaType] of [
      [ttl, 'text/turtle'],
      [`${ttl}\n`, 'application/n-triples'],
      [xml, 'application/rdf+xml'],
    ] as const) {
      const run = async (opts: ParseOptions) => {
        const budget = fakeBudget();
        const r = await parseRdfText(text, mediaType, BASE, resolveParseOptions({ strict: true, ...opts }), budget, new BlankNodeRelabeller('x'));
        return { quads: keys(r.quads), problem: r.problem, budgetExceeded: r.budgetExceeded };
      };
      const whole = await run({});
      expect(whole).toEqual(await run(STREAM));
      expect(whole.budgetExceeded).toBe(true);
      expect(whole.problem?.message).toMatch(/more than 10 ms of CPU time/);
    }
  });

  it('an HTML page past the budget fails whole, the same either way', async () => {
    const html = `<html><head><script type="text/turtle">${ttl}</script></head><body vocab="http://schema.org/"><p typeof="Thing"><span property="name">x</span></p></body></html>`;
    const run = async (opts: ParseOptions) => view(await parseEmbeddedWith(html, 'http://ex.org/page', resolveParseOptions({ strict: true, ...opts }), fakeBudget()));
    const whole = await run({});
    expect(whole).toEqual(await run(STREAM));
    expect(whole.error?.message).toMatch(/more than 10 ms of CPU time/);
  });
});

describe('the parts', () => {
  it('takeWholeText reads a synchronous iterable ahead and hands back what reads the same; never an asynchronous one', async () => {
    const parts = ['ab', 'cd', 'ef'];
    expect(takeWholeText(parts.values(), 6)).toEqual({ text: 'abcdef', pieces: 3, input: parts });
    const over = takeWholeText(parts.values(), 3);
    expect(over.text).toBeNull();
    expect([...(over.input as Iterable<string>)]).toEqual(parts);
    expect(takeWholeText('abc', 0)).toEqual({ text: null, pieces: 1, input: 'abc' });
    expect(takeWholeText('', 10).text).toBe('');
    const asyncParts = (async function* () {
      yield 'x';
    })();
    expect(takeWholeText(asyncParts, 10)).toEqual({ text: null, pieces: 0, input: asyncParts });
  });

  it('the blank-node prefix is SHA-1 of the IRI as before, whichever IRIs come in turn', () => {
    const sha = (iri: string) => createHash('sha1').update(iri).digest('hex').slice(0, 12);
    for (const iri of ['http://a.org/x', 'http://a.org/x', 'http://b.org/é', 'http://a.org/x']) {
      expect(blankNodePrefix(iri, 3)).toBe(`d${sha(iri)}_3_`);
    }
  });

  it('a relabeller given its prefix as a function calls it once, at the first blank node', async () => {
    let calls = 0;
    const relabeller = new BlankNodeRelabeller(() => {
      calls++;
      return 'P_';
    });
    const doc = await parseRdfText('<http://a> <http://b> <http://c> .\n', 'text/turtle', BASE, resolveParseOptions(), createBudget(10, 1000), relabeller);
    expect(doc.quads).toHaveLength(1);
    expect(calls).toBe(0);
    const blanks = await parseRdfText('_:x <http://b> _:y .\n_:y <http://b> _:x .\n', 'text/turtle', BASE, resolveParseOptions(), createBudget(10, 1000), relabeller);
    expect(blanks.quads.map((q) => [q.subject.value, q.object.value])).toEqual([
      ['P_b0', 'P_b1'],
      ['P_b1', 'P_b0'],
    ]);
    expect(calls).toBe(1);
  });

  it('runParserOnChunks keeps the stall guard', async () => {
    const stuck = Object.assign(new EventEmitter(), { write: () => true, end: () => undefined, destroy: () => undefined }) as unknown as StreamingParser;
    const r = await runParserOnChunks(stuck, ['text that is never parsed'], new BlankNodeRelabeller('x'), createBudget(1e6, 80), { add: () => {} });
    expect(r.error?.message).toMatch(/no progress for 80 ms/);
  });

  it('wholeTextChars is checked', () => {
    expect(resolveParseOptions({ wholeTextChars: 0 }).wholeTextChars).toBe(0);
    expect(resolveParseOptions().wholeTextChars).toBe(WHOLE_TEXT_CHARS);
    expect(() => resolveParseOptions({ wholeTextChars: -1 })).toThrow(/wholeTextChars/);
    expect(() => resolveParseOptions({ wholeTextChars: WHOLE_TEXT_CHARS + 1 })).toThrow(/wholeTextChars/);
    expect(() => resolveParseOptions({ wholeTextChars: 1.5 })).toThrow(/wholeTextChars/);
  });

  it('parseEmbedded: the same options object is accepted', async () => {
    const doc = await parseEmbedded('<html><body><div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">x</span></div></body></html>', 'http://ex.org/p', STREAM);
    expect(doc.quads.length).toBeGreaterThan(0);
  });
});
