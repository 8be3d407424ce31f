import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { patternOf } from '../../src/relevance/pattern-yield.ts';
import { extensionOfSegment, extensionOfUrl, parseUrlParts, plainUrlPath, splitPlainUrl, type UrlParts } from '../../src/relevance/url-parts.ts';

/** What parseUrlParts gave before plain URLs were read from the string: a WHATWG parse of every URL. */
function parsedParts(url: string): UrlParts {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { host: '', segments: [], query: null, extension: null };
  }
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  const query = parsed.search.length > 1 ? parsed.search.slice(1) : null;
  const last = parsed.pathname.endsWith('/') ? undefined : segments.at(-1);
  return { host: parsed.host.toLowerCase(), segments, query, extension: extensionOfSegment(last) };
}

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCHEMES = ['http://', 'https://', 'HTTP://', 'ftp://', 'http:/', 'http:///', ''];
const HOSTS = ['a.org', 'Ex.ORG', 'localhost', '127.0.0.1', '1.2.3.999', 'a.b.', 'xn--nxasmq6b.gr', 'XN--abc.com', 'ab--c.org', 'a-b.c-d', '0x7f.1', 'a.0x1', 'user@a.org', 'u:p@a.org', '[::1]', 'a b.org', '', 'ä.org', 'a%41.org', 'a..b', '-a.org', 'a.org.', 'a_b.org', 'a.123x'];
const PORTS = ['', '', '', ':', ':80', ':443', ':8080', ':65535', ':65536', ':123456', ':x', ':0080'];
const SEGMENTS = ['a', 'b.html', 'c.RDF', 'data.ttl', 'x.tar.gz', '.', '..', '%2e', '%2E%2e', '%2e.rdf', '.hidden', 'name.', 'a%20b.pdf', 'a b.pdf', 'ä.rdf', 'a|b.rdf', 'a\\b.rdf', '[x].ttl', "it's.ttl", 'v1.2', 'file.ttl;jsessionid=1', '~u', 'a:b.owl', '', 'x.n3', 'y.jsonld', 'q.PHP', 'a\tb.rdf', 'z.tt\nl', 'A%2fB.xml'];
const TAILS = ['', '/', '?x=1', '?a.rdf', '#f.ttl', '?', '#', '/?q', '?x=a b', "?q='x'", '?a?b=/c', '?%zz&x', '?x=ä', '?x#y?z', '#x y', ' ', '\t', '?a"b', '?a<b>'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

describe('parseUrlParts reads plain http(s) URLs from the string (issue 18)', () => {
  it('equals the WHATWG parse on 40,000 generated URLs, tricky parts included', () => {
    const r = random(18);
    let withExtension = 0;
    let read = 0; // URLs read from the string, not parsed
    // Compared in plain code, the differences collected and asserted once: 80,000 `expect` calls took seconds.
    const differ: Array<{ url: string; got: UrlParts | null; expected: UrlParts }> = [];
    for (let n = 0; n < 40_000; n++) {
      const segs = Array.from({ length: Math.floor(r() * 4) }, () => pick(r, SEGMENTS));
      const path = segs.length === 0 && r() < 0.5 ? '' : `/${segs.join('/')}`;
      const url = `${pick(r, SCHEMES)}${pick(r, HOSTS)}${pick(r, PORTS)}${path}${pick(r, TAILS)}`;
      const expected = parsedParts(url);
      const got = parseUrlParts(url);
      if (!isDeepStrictEqual(got, expected)) differ.push({ url, got, expected });
      const plain = splitPlainUrl(url);
      if (plain !== null) {
        if (!isDeepStrictEqual(plain, expected)) differ.push({ url, got: plain, expected });
        read++;
      }
      if (expected.extension !== null) withExtension++;
    }
    expect(differ.slice(0, 5)).toEqual([]);
    expect(withExtension).toBeGreaterThan(4_000); // the corpus has extensions to find, not only nulls
    expect(read).toBeGreaterThan(100); // and plain URLs the fast path takes (most of the corpus is meant to be tricky)
  });
  it('extensionOfUrl (NF) equals the WHATWG parse\'s extension on 40,000 generated URLs', () => {
    const r = random(35);
    let withExtension = 0;
    const differ: Array<{ url: string; got: string | null; expected: string | null }> = [];
    for (let n = 0; n < 40_000; n++) {
      const segs = Array.from({ length: Math.floor(r() * 4) }, () => pick(r, SEGMENTS));
      const path = segs.length === 0 && r() < 0.5 ? '' : `/${segs.join('/')}`;
      const url = `${pick(r, SCHEMES)}${pick(r, HOSTS)}${pick(r, PORTS)}${path}${pick(r, TAILS)}`;
      const expected = parsedParts(url).extension;
      const got = extensionOfUrl(url);
      if (got !== expected) differ.push({ url, got, expected });
      if (expected !== null) withExtension++;
    }
    expect(differ.slice(0, 5)).toEqual([]);
    expect(withExtension).toBeGreaterThan(4_000);
    expect(['http://a.org/x.RDF?q', 'http://a.org/.rdf', 'http://a.org/a.b/c', 'http://a.org/c.', 'http://a.org/x.rdf/'].map(extensionOfUrl)).toEqual(['rdf', null, null, null, null]);
  });
  it('reads typical links from the string, without a URL parse', () => {
    for (const url of ['http://A.org/people/ann/foaf.RDF', 'https://a.org/d/x.ttl?download=1&f=a?b#top', 'http://a.org', 'http://a.org?x.rdf', 'http://a.org/d/']) {
      expect(splitPlainUrl(url), url).toEqual(parsedParts(url));
    }
    for (const url of ['http://127.0.0.1:8080/x.owl', 'http://a.org:80/x', 'http://a.org/x.pdf/..', 'mailto:ann@a.org', 'http://u@a.org/']) expect(splitPlainUrl(url), url).toBeNull();
  });
  it('reads typical links', () => {
    expect(parseUrlParts('http://A.org/people/ann/foaf.RDF')).toEqual({ host: 'a.org', segments: ['people', 'ann', 'foaf.RDF'], query: null, extension: 'rdf' });
    expect(parseUrlParts('https://a.org/d/x.ttl?download=1&f=a?b#top')).toEqual({ host: 'a.org', segments: ['d', 'x.ttl'], query: 'download=1&f=a?b', extension: 'ttl' });
    expect(parseUrlParts('http://a.org/d/x.ttl/').extension).toBeNull();
    expect(parseUrlParts('http://a.org').segments).toEqual([]);
    expect(parseUrlParts('http://a.org?x.rdf')).toEqual({ host: 'a.org', segments: [], query: 'x.rdf', extension: null });
    expect(parseUrlParts('http://a.org/x.pdf/..').extension).toBeNull(); // resolved by the parser: `/`
    expect(parseUrlParts('http://127.0.0.1:8080/x.owl')).toEqual({ host: '127.0.0.1:8080', segments: ['x.owl'], query: null, extension: 'owl' });
    expect(parseUrlParts('http://a.org:80/x')).toEqual({ host: 'a.org', segments: ['x'], query: null, extension: null });
    expect(parseUrlParts('mailto:ann@a.org').extension).toBe('org'); // as parsed: the path `ann@a.org` (NF lets it through)
  });
  it('plainUrlPath (patternOf) equals the WHATWG parse wherever it reads a URL from the string', () => {
    const r = random(34);
    let read = 0;
    const differ: Array<{ url: string; got: unknown; expected: unknown }> = [];
    for (let n = 0; n < 40_000; n++) {
      const segs = Array.from({ length: Math.floor(r() * 4) }, () => pick(r, SEGMENTS));
      const path = segs.length === 0 && r() < 0.5 ? '' : `/${segs.join('/')}`;
      const url = `${pick(r, SCHEMES)}${pick(r, HOSTS)}${pick(r, PORTS)}${path}${pick(r, TAILS)}`;
      const plain = plainUrlPath(url);
      if (plain === null) continue;
      read++;
      const parsed = new URL(url);
      const expected = { host: parsed.host, path: parsed.pathname, hasQuery: parsed.search !== '' };
      if (!isDeepStrictEqual(plain, expected)) differ.push({ url, got: plain, expected });
    }
    expect(differ.slice(0, 5)).toEqual([]);
    expect(read).toBeGreaterThan(100);
    expect(patternOf('http://A.org/tests/t-01.TTL?x=1#f')).toBe('a.org/tests/*.ttl?');
    expect(patternOf('http://a.org')).toBe('a.org/*');
    expect(patternOf('http://a.org/x/../y/z.rdf')).toBe('a.org/y/*.rdf'); // parsed: dot segments resolved
    expect(patternOf('http://a.org/d/?')).toBe('a.org/d/*'); // an empty query is no query
  });
});
