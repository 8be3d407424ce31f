// normalizeUrl against the tricky-URL table, the BeeBot mode, its fast path for plain /path hrefs, and the tiny URL helpers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basePrefixOf, extensionOf, hostOf, isResolvedBlankNode, normalizeUrl, pldOf, resolvePlainPath } from '../../src/links/normalize-url.ts';

const rows = readFileSync(join(import.meta.dirname, '../fixtures/links/tricky-urls.txt'), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => l.split('\t') as [string, string, string]);

describe('normalizeUrl (standard)', () => {
  it('has a table to check', () => expect(rows.length).toBeGreaterThan(25));
  for (const [input, base, expected] of rows) {
    it(`${JSON.stringify(input)} ${base === '-' ? '' : `against ${base}`} → ${expected}`, () => {
      const res = normalizeUrl(input, base === '-' ? undefined : base);
      if (expected.startsWith('!')) expect(res).toEqual({ ok: false, reason: expected.slice(1) });
      else expect(res).toEqual({ ok: true, url: expected });
    });
  }

  it('refuses URLs over maxLength, before or after parsing', () => {
    const long = `http://example.org/${'a'.repeat(3000)}`;
    expect(normalizeUrl(long)).toEqual({ ok: false, reason: 'too-long' });
    expect(normalizeUrl(long, undefined, { maxLength: 5000 }).ok).toBe(true);
    expect(normalizeUrl(`http://example.org/${'a'.repeat(100_000)}`)).toEqual({ ok: false, reason: 'too-long' });
  });
});

describe('normalizeUrl (beebot)', () => {
  it('lower-cases the whole URL and drops one trailing slash (BeeBot §2)', () => {
    expect(normalizeUrl('http://Example.org/Page/', undefined, { mode: 'beebot' })).toEqual({ ok: true, url: 'http://example.org/page' });
    expect(normalizeUrl('http://example.org/', undefined, { mode: 'beebot' })).toEqual({ ok: true, url: 'http://example.org' });
    expect(normalizeUrl('HTTP://A.org/X?Q=Y#f', undefined, { mode: 'beebot' })).toEqual({ ok: true, url: 'http://a.org/x?q=y' });
    expect(normalizeUrl('javascript:x()', undefined, { mode: 'beebot' }).ok).toBe(false);
  });
});

describe('URL helpers', () => {
  it('pldOf gives the registrable domain, or the host itself for IPs and localhost', () => {
    expect(pldOf('www.dbtune.org')).toBe('dbtune.org');
    expect(pldOf('http://a.b.openlylocal.com:8080/x')).toBe('openlylocal.com');
    expect(pldOf('news.bbc.co.uk')).toBe('bbc.co.uk');
    expect(pldOf('127.0.0.1')).toBe('127.0.0.1');
    expect(pldOf('http://localhost:3000/')).toBe('localhost');
    expect(pldOf('http://[::1]/')).toBe('[::1]');
    expect(pldOf('site7.test')).toBe('site7.test');
  });
  it('hostOf slices the host (no port, no user info)', () => {
    expect(hostOf('http://www.a.org:8080/x?y')).toBe('www.a.org');
    expect(hostOf('http://user:pw@a.org/')).toBe('a.org');
    expect(hostOf('http://[::1]:80/')).toBe('[::1]');
    expect(hostOf('http://a.org')).toBe('a.org');
    expect(hostOf('not a url')).toBe('');
  });
  it('extensionOf reads the last path segment only', () => {
    expect(extensionOf('http://a.org/x/data.RDF?q=1.html')).toBe('rdf');
    expect(extensionOf('http://a.org/doc.ttl#x')).toBe('ttl');
    expect(extensionOf('http://a.org/')).toBe('');
    expect(extensionOf('http://a.org')).toBe('');
    expect(extensionOf('http://a.org/v1.2/page')).toBe('');
    expect(extensionOf('http://a.org/file.')).toBe('');
    expect(extensionOf('http://a.org/archive.tar.gz')).toBe('gz');
  });
});

describe('blank-node labels are not URLs (issue 16 item 5)', () => {
  it('refuses `_:b4999` as an href, and recognises one resolved as a relative IRI', () => {
    expect(normalizeUrl('_:b4999', 'http://a.org/doc')).toEqual({ ok: false, reason: 'blank-node' });
    expect(normalizeUrl('  _:x', 'http://a.org/doc')).toEqual({ ok: false, reason: 'blank-node' });
    expect(normalizeUrl('a_:b', 'http://a.org/doc')).toEqual({ ok: true, url: 'http://a.org/a_:b' });
    expect(isResolvedBlankNode('http://a.org/doc/_:b4999')).toBe(true);
    expect(isResolvedBlankNode('http://a.org/_:b1#x')).toBe(true);
    expect(isResolvedBlankNode('http://a.org/doc/a_:b')).toBe(false);
    expect(isResolvedBlankNode('http://a.org/doc?q=_:b')).toBe(false);
  });
});

describe('resolvePlainPath: plain /path hrefs resolved without parsing', () => {
  it('gives what normalizeUrl gives whenever it answers, on generated hrefs against varied bases (seeded)', () => {
    const seed = 17;
    let state = seed;
    const random = (n: number): number => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((state / 2 ** 31) * n); // the high bits: the low ones of this LCG cycle
    };
    const pieces = ['/', '/', 'a', 'B', 'x1', '.', '..', '/.', '/..', '%2e', '%2E', '%41', '%', '?', '??', '#', '#x', '&', '=', ' ', '\t', '\\', "'", '"', '~', ':', '@', '|', '[', ']', 'é', ';', ',', '!', '$', '(', '*', '+', '-', '_', '{', '`', '^'];
    const bases = ['http://Example.org/a/b', 'https://user:pw@h.example:8443/x?y#z', 'http://[::1]:80/', 'http://bücher.example/p/q', 'https://a.example:443/'];
    let answered = 0;
    let total = 0;
    for (let i = 0; i < 6000; i++) {
      let href = random(10) < 8 ? '/' : random(2) === 0 ? '//' : '';
      const parts = random(8);
      for (let k = 0; k < parts; k++) href += pieces[random(pieces.length)];
      const base = bases[random(bases.length)] as string;
      const prefix = basePrefixOf(base);
      expect(prefix).not.toBeNull();
      for (const opts of [{}, { mode: 'beebot' as const }, { maxLength: 30 }]) {
        total++;
        const fast = resolvePlainPath(href, prefix as string, opts);
        if (fast === null) continue;
        answered++;
        expect({ href, base, opts, url: fast }, `seed ${seed}`).toEqual({ href, base, opts, url: (normalizeUrl(href, base, opts) as { url: string }).url });
      }
    }
    expect(answered / total).toBeGreaterThan(0.1); // the fast path is exercised
  });

  it('leaves dot segments, percent signs, backslashes and hosts to normalizeUrl', () => {
    const prefix = basePrefixOf('http://a.example/x/y') as string;
    expect(prefix).toBe('http://a.example');
    expect(resolvePlainPath('/p/q?r=1&s#frag', prefix)).toBe('http://a.example/p/q?r=1&s');
    for (const href of ['/p/../q', '/p/./q', '/p/%2e%2e/q', '/%41', '/p\\q', '//b.example/', 'p/q', " /p", '/p q', "/p?q='1'"]) expect(resolvePlainPath(href, prefix), href).toBeNull();
    expect(basePrefixOf('mailto:a@b.example')).toBeNull();
  });
});
