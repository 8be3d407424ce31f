// A seeded generator of JSON-LD documents in and just outside the fast path's subset (for the differential test).
import { Prng } from '../../src/random/prng.ts';

const BASES = ['http://shop.example/products/42?page=1', 'http://x.example/a/b/', 'https://y.example', 'http://z.example/p/q#frag', 'http://w.example/dir/file.html'];

const CONTEXT_TERMS: Record<string, unknown> = {
  ex: 'http://x.example/ns#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  nogendelim: 'http://x.example/nd',
  name: 'foaf:name',
  link: { '@id': 'ex:link', '@type': '@id' },
  kind: { '@id': 'ex:kind', '@type': '@vocab' },
  born: { '@id': 'ex:born', '@type': 'xsd:date' },
  amount: { '@id': 'ex:amount', '@type': 'xsd:decimal' },
  full: 'http://x.example/full',
  typ: '@type',
  ident: '@id',
  pfx: { '@id': 'http://x.example/pfx/' },
};

/** Context entries just outside the subset (or at its edge). */
const ODD_CONTEXT_ENTRIES: Array<[string, unknown]> = [
  ['@base', 'http://other.example/'],
  ['@vocab', 'rel/'],
  ['@vocab', 'ex:'],
  ['@language', 'en_GB'],
  ['@language', null],
  ['@version', 1.1],
  ['@direction', 'ltr'],
  ['list', { '@id': 'ex:list', '@container': '@list' }],
  ['rev', { '@reverse': 'ex:rev' }],
  ['chain', 'name'],
  ['unk', 'unknownprefix:x'],
  ['nd', 'nogendelim:x'],
  ['blank', '_:b'],
  ['nullterm', null],
  ['json', { '@id': 'ex:json', '@type': '@json' }],
  ['notype', { '@type': '@id' }],
  ['lang', { '@id': 'ex:lang', '@language': 'de' }],
  ['ex:term', 'http://x.example/t'],
];

// Each pool: values of the subset, then (ODD_*) values at or past its edge, used in the documents that may step outside.
const KEYS = ['name', 'url', 'image', 'sameAs', 'author', 'price', 'p', 'q', 'link', 'kind', 'born', 'amount', 'full', 'ex:a', 'foaf:knows', 'schema:name', 'og:title', 'http://x.example/abs', 'pfx:x', 'nogendelim:y', 'typ', 'ident', 'type', 'id'];
const ODD_KEYS = ['list', 'rev', 'chain', 'unk', 'nd', 'json', 'lang', 'notype', 'nullterm', '', 'a b', '@foo', '@reverse', '@nest', '@index', 'constructor', '_:bn', '#frag', ':colon', '@graph', '@value', 'toString:x'];
const IRIS = ['http://x.example/o', 'https://schema.org/InStock', '/abs/path', '../up', '?q=1', '#frag', '', '.', 'ex:o', 'foaf:Person', 'unknown:thing', '_:b1', '_:b2', '//host.example/x', 'mailto:a@b.example', 'Product', 'name', 'https://x.example/?s={q}'];
const ODD_IRIS = ['a b', 'http://x.example/a b', 'constructor', '_:', '@id', 'ex:<x>'];
const TYPES = ['Product', 'Offer', 'schema:Thing', 'http://x.example/T', 'ex:T', 'foaf:Person', 'Rel/ative', 'unknown:T', 'nogendelim:T'];
const ODD_TYPES = ['type', 'typ', '', '_:t', '@id', 'a b'];
const STRINGS = ['plain', 'Ünïcödé ✓', 'with "quotes" and \\ backslash', 'line\nbreak', '', 'http://looks.example/like-an-iri', '😀'];
const NUMBERS = [0, -0, 1, 42, -17, 3.5, -0.25, 0.1 + 0.2, 1e-7, 1e20, 1e21, -1e21, 123456.789, 2.5e30, 999999999999999];
/** `BIG` stands for an integer written with more digits than a double keeps (put in the text after JSON.stringify). */
const BIG = '__big_integer__';
const ODD_NUMBERS: ReadonlyArray<number | string> = [9007199254740991, 2 ** 53, 1e300, BIG];

/** One element of `pool`, or (in a document that may step outside the subset, now and then) of `odd`. */
function pick<T>(rng: Prng, pool: readonly T[], odd: boolean, oddPool: readonly T[]): T {
  return odd && rng.chance(0.1) ? rng.pick(oddPool) : rng.pick(pool);
}

/** A random document of seed `seed` and the base IRI to parse it against. */
export function generateDocument(seed: number): { text: string; base: string } {
  const rng = new Prng(seed * 7919 + 13);
  const base = rng.pick(BASES);
  const odd = rng.chance(0.35); // this document may step outside the subset
  const doc = rng.chance(0.15) ? [topNode(rng, odd), topNode(rng, odd)] : rng.chance(0.15) ? graphDocument(rng, odd) : topNode(rng, odd);
  let text = JSON.stringify(doc, null, rng.chance(0.3) ? 2 : undefined);
  text = text.replaceAll(`"${BIG}"`, '12345678901234567890');
  if (rng.chance(0.3)) text = text.replaceAll('😀', odd && rng.chance(0.3) ? '\\ud83d' : '\\ud83d\\ude00'); // escaped as PHP writes it
  if (odd && rng.chance(0.1)) text = text.replace(/^\{/, '{"p": "dup", "p": "dup2",');
  if (rng.chance(0.05)) text = `\uFEFF${text}`;
  if (odd && rng.chance(0.03)) text = text.slice(0, Math.floor(text.length / 2));
  return { text, base };
}

function graphDocument(rng: Prng, odd: boolean): Record<string, unknown> {
  const doc: Record<string, unknown> = { '@context': context(rng, odd), '@graph': [node(rng, odd, 1), node(rng, odd, 1)] };
  if (odd && rng.chance(0.3)) doc['@id'] = 'http://x.example/g';
  return doc;
}

function topNode(rng: Prng, odd: boolean): Record<string, unknown> {
  const n = node(rng, odd, 0);
  if (!rng.chance(0.1)) n['@context'] = context(rng, odd);
  return n;
}

function context(rng: Prng, odd: boolean): unknown {
  const r = rng.next();
  if (r < 0.3) return rng.pick(['https://schema.org', 'http://schema.org/', 'https://schema.org/docs/jsonldcontext.json']);
  const inline: Record<string, unknown> = {};
  if (rng.chance(0.8)) inline['@vocab'] = rng.pick(['http://schema.org/', 'https://schema.org/', 'http://x.example/v#']);
  if (rng.chance(0.3)) inline['@language'] = rng.pick(['en', 'en-US', 'DE']);
  for (const [k, v] of Object.entries(CONTEXT_TERMS)) if (rng.chance(0.4)) inline[k] = v;
  if (odd && rng.chance(0.5)) {
    const [k, v] = rng.pick(ODD_CONTEXT_ENTRIES);
    inline[k] = v;
  }
  if (r < 0.45) return ['https://schema.org', inline];
  if (odd && r < 0.5) return [inline, rng.pick(['https://schema.org', 'http://unknown.example/c'])];
  return inline;
}

function node(rng: Prng, odd: boolean, depth: number): Record<string, unknown> {
  const n: Record<string, unknown> = {};
  if (rng.chance(0.6)) n['@id'] = pick(rng, IRIS, odd, ODD_IRIS);
  if (rng.chance(0.6)) n['@type'] = rng.chance(0.3) ? [pick(rng, TYPES, odd, ODD_TYPES), pick(rng, TYPES, odd, ODD_TYPES)] : pick(rng, TYPES, odd, ODD_TYPES);
  const count = rng.int(0, 4);
  for (let i = 0; i < count; i++) {
    const key = pick(rng, KEYS, odd, ODD_KEYS);
    n[key] = value(rng, odd, depth);
  }
  return n;
}

function value(rng: Prng, odd: boolean, depth: number): unknown {
  const r = rng.next();
  if (r < 0.3) return rng.chance(0.5) ? rng.pick(STRINGS) : pick(rng, IRIS, odd, ODD_IRIS);
  if (r < 0.42) return pick(rng, NUMBERS, odd, ODD_NUMBERS);
  if (r < 0.47) return rng.chance(0.5);
  if (r < 0.5) return null;
  if (r < 0.62) return odd || depth === 0 ? [value(rng, odd, depth + 1), value(rng, odd, depth + 1)] : rng.pick(STRINGS);
  if (r < 0.75) return valueObject(rng, odd);
  if (odd && r < 0.8) return rng.pick([{ '@list': ['a', 'b'] }, { '@set': ['a'] }, [['nested']], { '@context': { '@vocab': 'http://y.example/' }, z: 'v' }, { q: null }, {}]);
  if (depth >= 3) return rng.pick(STRINGS);
  return rng.chance(0.3) ? { '@id': pick(rng, IRIS, odd, ODD_IRIS) } : node(rng, odd, depth + 1);
}

function valueObject(rng: Prng, odd: boolean): Record<string, unknown> {
  const v: Record<string, unknown> = { '@value': rng.chance(0.8) ? rng.pick(STRINGS) : rng.pick([...NUMBERS, true, null]) };
  const r = rng.next();
  if (r < 0.35) v['@language'] = rng.pick(['en', 'fr-CA', 'EN-gb', ...(odd ? ['en_GB', '', 'x-'] : [])]);
  else if (r < 0.7) v['@type'] = rng.pick(['xsd:date', 'http://www.w3.org/2001/XMLSchema#integer', 'Custom', 'ex:T', ...(odd ? ['_:t', '@id', ''] : [])]);
  if (odd && rng.chance(0.1)) v['@index'] = 'i';
  return v;
}
