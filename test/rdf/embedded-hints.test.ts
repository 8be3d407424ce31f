// embeddedHints reads a page once for the three cheap looks that decide whether its embedded RDF is parsed;
// it must answer what the three regexes it replaced answered, on every text.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { embeddedHints, HINT_PATTERNS } from '../../src/rdf/parse-embedded.ts';
import { Prng } from '../../src/random/prng.ts';

// The three looks one regex each, as they ran before one pass: the reference the one-pass version is compared with.
const reference = (html: string) => ({ rdfa: HINT_PATTERNS.rdfa.test(html), microdata: HINT_PATTERNS.microdata.test(html), scriptOrBase: HINT_PATTERNS.scriptOrBase.test(html) });

// Pieces that make (or nearly make) each look match, overlapping ones included.
const PIECES = [
  ' property="name"',
  ' PROPERTY = "x"',
  ' typeof=x',
  ' about',
  ' about=',
  'about=',
  ' vocab="http://schema.org/"',
  ' prefix',
  ' resource =',
  ' rel="foaf:knows"',
  ' rel="nofollow"',
  ' rel=nofollow foaf:x',
  " rev='dc:x'",
  ' REL = "http://x"',
  ' itemscope',
  ' itemscoped',
  ' ITEMSCOPE>',
  'itemscope',
  '<script type="application/ld+json">',
  '<SCRIPT TYPE=text/turtle>',
  '<script src=x type="text/javascript">',
  '<script property="p" type="application/trig">',
  '<script itemscope type="text/n3">',
  '<script>',
  '<base href="/x/">',
  '<BASE>',
  '<basefont>',
  '<div class="a">',
  '</div>',
  'text ',
  '\n',
  '\t',
  ' ',
  '>',
  '"',
  "'",
  '<',
];

function page(g: Prng): string {
  const n = 1 + Math.floor(g.next() * 12);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(g.next() * PIECES.length)];
  return s;
}

describe('embeddedHints', () => {
  it('answers as the three regexes on 20,000 generated texts', () => {
    const g = new Prng(18);
    const seen = { rdfa: 0, microdata: 0, scriptOrBase: 0 };
    // Compared in plain code, the differences asserted once: an `expect` per text took most of the test's time.
    const differ: Array<{ html: string; got: ReturnType<typeof embeddedHints>; want: ReturnType<typeof reference> }> = [];
    for (let i = 0; i < 20_000; i++) {
      const html = page(g);
      const want = reference(html);
      const got = embeddedHints(html);
      if (!isDeepStrictEqual(got, want)) differ.push({ html, got, want });
      for (const k of ['rdfa', 'microdata', 'scriptOrBase'] as const) if (want[k]) seen[k]++;
    }
    expect(differ.slice(0, 3)).toEqual([]);
    // Every look both matched and failed often enough for the comparison to mean something.
    for (const k of ['rdfa', 'microdata', 'scriptOrBase'] as const) {
      expect(seen[k]).toBeGreaterThan(2_000);
      expect(seen[k]).toBeLessThan(18_000);
    }
  });

  it("finds a look inside another one's match (an RDFa attribute on an RDF script tag)", () => {
    expect(embeddedHints('<script property="p" type="application/ld+json">{}</script>')).toEqual({ rdfa: true, microdata: false, scriptOrBase: true });
    expect(embeddedHints('<script itemscope type="text/turtle"></script>')).toEqual({ rdfa: false, microdata: true, scriptOrBase: true });
  });

  it('answers each text for itself when asked again, for the same text or another', () => {
    const a = '<p property="x">';
    const b = '<p itemscope>';
    expect(embeddedHints(a)).toEqual({ rdfa: true, microdata: false, scriptOrBase: false });
    expect(embeddedHints(a)).toEqual({ rdfa: true, microdata: false, scriptOrBase: false });
    expect(embeddedHints(b)).toEqual({ rdfa: false, microdata: true, scriptOrBase: false });
    expect(embeddedHints(`${b.slice(0, 3)}${b.slice(3)}`)).toEqual({ rdfa: false, microdata: true, scriptOrBase: false });
    expect(embeddedHints('')).toEqual({ rdfa: false, microdata: false, scriptOrBase: false });
  });
});
