// One tokenizer pass per HTML page: extractLinks filling the page scan gives the same links, and the scan
// the same script blocks, lines, base and attribute flags, as the separate scan pass did (kept below as the reference).
import { type Token, Tokenizer, TokenizerMode } from 'parse5';
import { describe, expect, it } from 'vitest';
import { type ExtractLinksOptions, extractLinks, PageScan, scanPage } from '../../src/links/index.ts';
import { pageScanFor, parseDocument, SCAN_SCRIPT_TYPES } from '../../src/rdf/index.ts';
import { buildWeb, respond } from '../../src/simweb/index.ts';

const TYPES = SCAN_SCRIPT_TYPES;
const RDFA_ATTRIBUTES = new Set(['property', 'typeof', 'about', 'vocab', 'prefix', 'resource']);
const HINT = /<script\b[^>]*\btype\s*=\s*["']?\s*(?:application\/(?:ld\+json|n-triples|n-quads|trig)|text\/(?:turtle|n3))|<base\b/i;

interface RefScan {
  scripts: Array<{ type: string; text: string; line: number }>;
  baseHref: string | null;
  hasRdfa: boolean;
  hasMicrodata: boolean;
}

/** The scan as parse-embedded.ts did it before issue 18's one pass (its own parse5 pass, with source locations). */
function referenceScan(html: string): RefScan {
  const scan: RefScan = { scripts: [], baseHref: null, hasRdfa: false, hasMicrodata: false };
  let current: RefScan['scripts'][number] | null = null;
  const onText = (token: Token.CharacterToken): void => {
    if (current !== null) current.text += token.chars;
  };
  const tokenizer: Tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: true },
    {
      onStartTag(token: Token.TagToken) {
        for (const attr of token.attrs) {
          if (RDFA_ATTRIBUTES.has(attr.name) || ((attr.name === 'rel' || attr.name === 'rev') && attr.value.includes(':'))) scan.hasRdfa = true;
          else if (attr.name === 'itemscope') scan.hasMicrodata = true;
        }
        const name = token.tagName;
        if (name === 'base' && scan.baseHref === null) {
          scan.baseHref = token.attrs.find((a) => a.name === 'href')?.value ?? null;
        } else if (name === 'script') {
          tokenizer.state = TokenizerMode.SCRIPT_DATA;
          const type = (token.attrs.find((a) => a.name === 'type')?.value ?? '').split(';', 1)[0]!.trim().toLowerCase();
          current = TYPES.has(type) ? { type, text: '', line: token.location?.endLine ?? 1 } : null;
        } else if (name === 'style' || name === 'xmp' || name === 'iframe' || name === 'noembed' || name === 'noframes') {
          tokenizer.state = TokenizerMode.RAWTEXT;
        } else if (name === 'title' || name === 'textarea') {
          tokenizer.state = TokenizerMode.RCDATA;
        } else if (name === 'plaintext') {
          tokenizer.state = TokenizerMode.PLAINTEXT;
        }
      },
      onEndTag(token: Token.TagToken) {
        if (token.tagName === 'script' && current !== null) {
          scan.scripts.push(current);
          current = null;
        }
      },
      onCharacter: onText,
      onWhitespaceCharacter: onText,
      onNullCharacter: onText,
      onComment() {},
      onDoctype() {},
      onEof() {
        if (current !== null) scan.scripts.push(current);
        current = null;
      },
    },
  );
  tokenizer.write(html, true);
  return scan;
}

const fields = (s: PageScan | RefScan): RefScan => ({ scripts: s.scripts.map((b) => ({ ...b })), baseHref: s.baseHref, hasRdfa: s.hasRdfa, hasMicrodata: s.hasMicrodata });

/** The reference scan as a PageScan, to parse the page as the code before the one pass did. */
function asPageScan(ref: RefScan): PageScan {
  const scan = new PageScan(TYPES);
  scan.scripts.push(...ref.scripts);
  scan.baseHref = ref.baseHref;
  scan.hasRdfa = ref.hasRdfa;
  scan.hasMicrodata = ref.hasMicrodata;
  scan.complete = true;
  return scan;
}

const OPTION_SETS: ExtractLinksOptions[] = [{}, { maxLinks: 500, maxTextChars: 0 }, { maxLinks: 3, maxTextChars: 0 }];

interface Outcome {
  /** The scan was filled completely by the links' pass (else parsing scanned the page again). */
  complete: boolean[];
}

/** Compares, for one page, the links with and without the scan, the scan with the reference, and the parse results. */
async function compare(html: string, url: string, parse = true): Promise<Outcome> {
  const ref = referenceScan(html);
  expect(fields(scanPage(html, TYPES))).toEqual(ref);
  const complete: boolean[] = [];
  let lastScan: PageScan | null = null;
  for (const opts of OPTION_SETS) {
    const scan = new PageScan(TYPES);
    expect(extractLinks(html, url, { ...opts, scan })).toEqual(extractLinks(html, url, opts));
    expect(scan.complete).toBe(!scan.abandoned);
    if (scan.complete) expect(fields(scan)).toEqual(ref);
    complete.push(scan.complete);
    lastScan = scan;
  }
  if (parse && HINT.test(html)) {
    const before = await parseDocument(html, { kind: 'html' }, url, undefined, asPageScan(ref));
    const after = await parseDocument(html, { kind: 'html' }, url, undefined, lastScan ?? undefined);
    const alone = await parseDocument(html, { kind: 'html' }, url);
    expect(after).toEqual(before);
    expect(alone).toEqual(before);
  }
  return { complete };
}

const URL_ = 'http://site.example/dir/page';
const block = (obj: unknown) => JSON.stringify(obj, null, 2);
const person = (id: string, name: string) => block({ '@context': { '@vocab': 'http://schema.org/' }, '@id': id, name });

describe('one tokenizer pass for links and the page scan', () => {
  it('reads every HTML page of the simulated web (all profiles) as the two passes did', async () => {
    const web = buildWeb({ profiles: 'all', scale: 0.5, seed: 1 });
    let hinted = 0;
    let sampled = 0;
    let scripts = 0;
    let quads = 0;
    let n = 0;
    for (const site of web.sites) {
      for (const doc of site.docs) {
        if (doc.kind !== 'html' || doc.status !== 200) continue;
        const url = `http://${site.host}${doc.path}`;
        const r = respond(web, url, 'text/html');
        if (r.status !== 200 || !String(r.headers['content-type']).includes('html')) continue;
        const html = r.body.toString('utf8');
        n++;
        if (HINT.test(html)) {
          // The pages the crawl scans: links, scan and parse compared (the crawl's own path below too).
          hinted++;
          const { complete } = await compare(html, url);
          expect(complete).toEqual([true, true, true]);
          const scan = pageScanFor(html)!;
          extractLinks(html, url, { maxLinks: 500, maxTextChars: 0, scan });
          scripts += scan.scripts.length;
          quads += (await parseDocument(html, { kind: 'html' }, url, undefined, scan)).quads.length;
        } else if (n % 25 === 0) {
          // Pages the crawl does not scan: the scan forced on a sample (RDFa and Microdata attributes, no parse).
          sampled++;
          await compare(html, url, false);
        }
      }
    }
    expect(n).toBeGreaterThan(50_000);
    expect(hinted).toBeGreaterThan(1_000);
    expect(sampled).toBeGreaterThan(1_000);
    expect(scripts).toBeGreaterThan(1_000);
    expect(quads).toBeGreaterThan(10_000);
  }, 120_000);

  it('reads a given complete scan (made with the embedded script types) instead of scanning again', async () => {
    expect([...TYPES].sort()).toEqual(['application/ld+json', 'application/n-quads', 'application/n-triples', 'application/trig', 'text/n3', 'text/turtle']);
    const html = `<script type="application/ld+json">${person('#me', 'Ada')}</script>`;
    const doctored = asPageScan({ ...referenceScan(html), scripts: [{ type: 'application/ld+json', text: person('#me', 'Grace'), line: 1 }] });
    expect((await parseDocument(html, { kind: 'html' }, URL_, undefined, doctored)).quads[0]!.object.value).toBe('Grace');
    const incomplete = asPageScan({ ...referenceScan(html), scripts: [] });
    incomplete.complete = false;
    expect((await parseDocument(html, { kind: 'html' }, URL_, undefined, incomplete)).quads[0]!.object.value).toBe('Ada');
    const otherTypes = new PageScan(new Set(['application/ld+json']));
    otherTypes.complete = true;
    expect((await parseDocument(html, { kind: 'html' }, URL_, undefined, otherTypes)).quads[0]!.object.value).toBe('Ada');
  });

  it('reads the scripts after the maxLinks cut-off', async () => {
    const links = Array.from({ length: 10 }, (_, i) => `<p><a href="/l${i}">link ${i}</a></p>`).join('\n');
    const html = `<html><body>\n${links}\n<script type="application/ld+json">${person('#me', 'Ada')}</script>\n<a href="/late">late</a></body></html>`;
    await compare(html, URL_);
    const scan = pageScanFor(html)!;
    const extracted = extractLinks(html, URL_, { maxLinks: 3, maxTextChars: 0, scan });
    expect(extracted.links.map((l) => l.url)).toEqual(['http://site.example/l0', 'http://site.example/l1', 'http://site.example/l2']);
    expect(scan.complete).toBe(true);
    expect(scan.scripts).toHaveLength(1);
    expect(scan.scripts[0]!.line).toBe(12);
    const parsed = await parseDocument(html, { kind: 'html' }, URL_, undefined, scan);
    expect(parsed.quads.map((q) => q.object.value)).toEqual(['Ada']);
  });

  it('reads an unclosed script, a <base> after links, scripts in comments, <template> and <noscript>', async () => {
    const unclosed = `<html><head><script type="application/ld+json">${person('#me', 'Ada')}`;
    expect((await compare(unclosed, URL_)).complete).toEqual([true, true, true]);
    expect(scanPage(unclosed, TYPES).scripts).toHaveLength(1);

    const lateBase = `<a href="a">a</a><base href="http://other.example/x/"><a href="b">b</a><script type="application/ld+json">${person('c', 'C')}</script>`;
    await compare(lateBase, URL_);
    const parsed = await parseEmbeddedOnce(lateBase);
    expect(parsed.quads[0]!.subject.value).toBe('http://other.example/x/c');

    const hidden = [
      `<!-- <script type="application/ld+json">${person('#c1', 'Comment')}</script> -->`,
      `<template><script type="application/ld+json">${person('#t', 'Template')}</script></template>`,
      `<noscript><script type="application/ld+json">${person('#n', 'Noscript')}</script></noscript>`,
    ].join('\n');
    await compare(hidden, URL_);
    // Each block is 7 lines long: the template's starts on line 8, the noscript's on 15; the comment's is no script.
    expect(scanPage(hidden, TYPES).scripts.map((s) => s.line)).toEqual([8, 15]);
  });

  it('unwraps CDATA, takes type parameters and uppercase tags, reports a syntax error at its line', async () => {
    const cdata = `<script type="application/ld+json">//<![CDATA[\n${person('#me', 'Ada')}\n//]]></script>`;
    await compare(cdata, URL_);
    expect((await parseEmbeddedOnce(cdata)).quads).toHaveLength(1);

    const charset = `<SCRIPT TYPE="Application/LD+JSON; charset=utf-8">${person('#me', 'Ada')}</SCRIPT><BASE HREF="http://b.example/">`;
    await compare(charset, URL_);
    expect((await parseEmbeddedOnce(charset)).quads).toHaveLength(1);

    // The block starts on line 4; its line 3 (`"name": oops`) is the page's line 6. CRLF counts as one line break.
    const broken = `<html>\r\n<head>\r\n<title>t</title>\r\n<script type="application/ld+json">\r\n{\r\n  "name": oops\r\n}\r\n</script>\r\n<script type="text/turtle"><a> <b> <c> .</script>`;
    await compare(broken, URL_);
    const parsed = await parseEmbeddedOnce(broken);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems![0]).toMatchObject({ source: 'jsonld#1', line: 6 });
    expect(parsed.quads).toHaveLength(1);
  });

  it('falls back to a scan of its own where the links read a tag in another state (<script/>, <noframes>)', async () => {
    for (const html of [
      `<script type="application/ld+json"/>${person('#me', 'Ada')}</script><a href="x">x</a>`,
      `<noframes><a href="x">x</a></noframes><script type="application/ld+json">${person('#me', 'Ada')}</script>`,
      `<title/><a href="x">x</a></title><script type="text/turtle"><a> <b> <c> .</script>`,
    ]) {
      const { complete } = await compare(html, URL_);
      expect(complete).toEqual([false, false, false]);
      expect((await parseEmbeddedOnce(html)).quads).toHaveLength(1);
    }
  });

  it('reads a 10 MB page once, with the script at its end', async () => {
    const para = '<p class="x">Some words of text with <a href="/p/ID">a link ID</a> and <b>more</b> words.</p>\n';
    const parts: string[] = ['<html><head><title>big</title></head><body>\n'];
    let size = 0;
    for (let i = 0; size < 10_000_000; i++) {
      const p = para.replaceAll('ID', String(i));
      parts.push(p);
      size += p.length;
    }
    parts.push(`<script type="application/ld+json">${person('#me', 'Big')}</script></body></html>`);
    const html = parts.join('');
    const ref = referenceScan(html);
    expect(ref.scripts).toHaveLength(1);
    const scan = pageScanFor(html)!;
    const crawlOpts = { maxLinks: 500, maxTextChars: 0 };
    expect(extractLinks(html, URL_, { ...crawlOpts, scan })).toEqual(extractLinks(html, URL_, crawlOpts));
    expect(scan.complete).toBe(true);
    expect(fields(scan)).toEqual(ref);
    expect(scan.scripts[0]!.line).toBe(parts.length);
  }, 60_000);
});

async function parseEmbeddedOnce(html: string) {
  const scan = pageScanFor(html);
  extractLinks(html, URL_, { maxLinks: 500, maxTextChars: 0, ...(scan !== undefined ? { scan } : {}) });
  return parseDocument(html, { kind: 'html' }, URL_, undefined, scan);
}
