// **page-scan-cost**: CPU per HTML page of the crawl path's tokenizer passes (issue 18, session 10): the embedded-RDF
// scan alone (`scanPage`; before session 10 a parse5 pass of its own with source locations), link extraction
// (`extractLinks`), and the whole analyse step (`analyseDocument` of an HTML fetch result, the store left out), on
// the simweb's pages. Before session 10 a page with an RDF script or a `<base>` was tokenised by both passes.
// Run: node_modules/.bin/node bench/page-scan-cost.ts [--base /tmp/main-checkout] [--pages 2000] [--rounds 4]
//      [--profiles modern-like,mixed]
// With --base, the analyse step of both checkouts is timed in one process, alternated (A B B A …), and its ratio
// printed. CPU time (user+sys of this process) per page, medians of the rounds; the load average is printed with it.
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Tokenizer, TokenizerMode, type TokenHandler } from 'parse5';
import { type SimwebHtmlPage, simwebHtmlPages } from './lib/simweb-html-pages.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    pages: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    profiles: { type: 'string', default: 'modern-like,mixed' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);

type Analyse = typeof import('../src/crawl/analyse-document.ts').analyseDocument;
type ExtractLinks = typeof import('../src/links/index.ts').extractLinks;
type ParseEmbedded = typeof import('../src/rdf/parse-embedded.ts').parseEmbedded;
interface Side {
  name: string;
  analyse: Analyse;
  extractLinks: ExtractLinks;
  parseEmbedded: ParseEmbedded;
  /** The embedded-RDF scan alone, when the checkout exports it (`scanPage`). */
  scanPage: ((html: string) => unknown) | undefined;
}

async function load(name: string, root: string): Promise<Side> {
  const analyse = (await import(join(root, 'src/crawl/analyse-document.ts'))) as typeof import('../src/crawl/analyse-document.ts');
  const links = (await import(join(root, 'src/links/index.ts'))) as typeof import('../src/links/index.ts');
  const embedded = (await import(join(root, 'src/rdf/parse-embedded.ts'))) as Record<string, unknown>;
  const scanModule = (await import(join(root, 'src/links/page-scan.ts')).catch(() => ({}))) as Record<string, unknown>;
  // The scan alone: parse-embedded's own (before issue 18's one pass, exported there for this bench) or page-scan's.
  const ownScan = embedded.scanPage as ((html: string) => unknown) | undefined;
  const sharedScan = scanModule.scanPage as ((html: string, types: ReadonlySet<string>) => unknown) | undefined;
  const rdfTypes = new Set(['application/ld+json', 'text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig', 'text/n3']);
  const scan = ownScan ?? (sharedScan === undefined ? undefined : (html: string) => sharedScan(html, rdfTypes));
  return { name, analyse: analyse.analyseDocument, extractLinks: links.extractLinks, parseEmbedded: embedded.parseEmbedded as ParseEmbedded, scanPage: scan };
}

/** The scan's cheap look (parse-embedded.ts): pages without an RDF script type or a `<base>` are not tokenised for it. */
const SCRIPT_OR_BASE_HINT = /<script\b[^>]*\btype\s*=\s*["']?\s*(?:application\/(?:ld\+json|n-triples|n-quads|trig)|text\/(?:turtle|n3))|<base\b/i;

interface Page extends SimwebHtmlPage {
  scanned: boolean;
}

function pagesOf(profiles: string): Page[] {
  return simwebHtmlPages(profiles, PAGES).map((p) => ({ ...p, scanned: SCRIPT_OR_BASE_HINT.test(p.html) }));
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const load1 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** A bare tokenizer pass (script/style read as raw text, nothing kept), with or without source locations. */
function bareTokenize(html: string, locations: boolean): void {
  const handler: TokenHandler = {
    onStartTag(token) {
      if (token.tagName === 'script') tokenizer.state = TokenizerMode.SCRIPT_DATA;
      else if (token.tagName === 'style') tokenizer.state = TokenizerMode.RAWTEXT;
    },
    onEndTag() {},
    onCharacter() {},
    onWhitespaceCharacter() {},
    onNullCharacter() {},
    onComment() {},
    onDoctype() {},
    onEof() {},
  };
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: locations }, handler);
  tokenizer.write(html, true);
}

const ANALYSIS = { followRdfLinks: true, pageText: false, maxLinksPerDoc: 500, normalize: 'standard' as const };

async function analyseAll(side: Side, pages: readonly Page[], hash = false): Promise<{ ms: number; check: string }> {
  const h = hash ? createHash('sha1') : null;
  const t = cpuMs();
  for (const p of pages) {
    const result = { kind: 'ok' as const, url: p.url, finalUrl: p.url, redirects: [], ms: 0, status: 200, contentType: p.contentType, headers: {}, body: p.body, charset: null };
    const a = await side.analyse(result, null, ANALYSIS, async () => null);
    h?.update(JSON.stringify([a.links, a.bad, a.text, a.triples, a.rdfFormat, a.errorMessage, a.voidPoints]));
  }
  return { ms: cpuMs() - t, check: h?.digest('hex').slice(0, 12) ?? '' };
}

const sides = [await load('this', join(import.meta.dirname, '..'))];
if (values.base) sides.unshift(await load('base', values.base));

console.log(`page-scan-cost: ${PAGES} pages per web, ${ROUNDS} rounds alternated; load average ${load1()}`);
for (const profiles of (values.profiles ?? '').split(',')) {
  const pages = pagesOf(profiles);
  const scanned = pages.filter((p) => p.scanned);
  const times = new Map<string, number[]>();
  const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
  const checks = new Map<string, string>();
  for (const side of sides) checks.set(side.name, (await analyseAll(side, pages, true)).check); // warm-up, and the outputs hashed
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const all = await analyseAll(side, pages);
      record(`${side.name} analyse, all pages`, all.ms);
      record(`${side.name} analyse, scanned pages`, (await analyseAll(side, scanned)).ms);
    }
    let t = 0;
    for (const side of order) {
      t = cpuMs();
      for (const p of scanned) side.scanPage?.(p.html);
      record(`${side.name} scanPage alone, scanned pages`, cpuMs() - t);
    }
    const first = sides[sides.length - 1] as Side;
    t = cpuMs();
    for (const p of scanned) first.extractLinks(p.html, p.url, { maxLinks: 500, maxTextChars: 0 });
    record('extractLinks, scanned pages', cpuMs() - t);
    t = cpuMs();
    for (const p of pages) first.extractLinks(p.html, p.url, { maxLinks: 500, maxTextChars: 0 });
    record('extractLinks, all pages', cpuMs() - t);
    t = cpuMs();
    for (const p of scanned) await first.parseEmbedded(p.html, p.url);
    record('parseEmbedded, scanned pages', cpuMs() - t);
    for (const locations of round % 2 === 0 ? [true, false] : [false, true]) {
      t = cpuMs();
      for (const p of scanned) bareTokenize(p.html, locations);
      record(`bare tokenizer ${locations ? 'with' : 'without'} locations, scanned pages`, cpuMs() - t);
    }
  }
  const per = (key: string, n: number) => (median(times.get(key) ?? [0]) / Math.max(1, n)) * 1000;
  const kb = scanned.reduce((s, p) => s + p.html.length, 0) / Math.max(1, scanned.length) / 1024;
  console.log(
    `\n${profiles}: ${pages.length} HTML pages, ${scanned.length} with an RDF script or <base> (scanned; ${kb.toFixed(1)} kB on average); ` +
      `analyse outputs hashed: ${[...checks].map(([k, v]) => `${k} ${v}`).join(', ')}; load ${load1()}`,
  );
  for (const key of [...times.keys()]) {
    const n = key.includes('scanned pages') ? scanned.length : pages.length;
    console.log(`  ${key.padEnd(56)} ${per(key, n).toFixed(1).padStart(7)} CPU µs/page  (rounds ${(times.get(key) ?? []).map((x) => x.toFixed(0)).join(' ')} ms)`);
  }
  for (const side of sides) {
    const analyseScanned = per(`${side.name} analyse, scanned pages`, scanned.length);
    const scanCost = per(`${side.name} scanPage alone, scanned pages`, scanned.length);
    if (scanCost > 0) console.log(`  ${side.name}: scanPage alone / analyse on scanned pages: ${((scanCost / analyseScanned) * 100).toFixed(1)}%`);
  }
  const withLoc = per('bare tokenizer with locations, scanned pages', scanned.length);
  const without = per('bare tokenizer without locations, scanned pages', scanned.length);
  console.log(`  source locations alone: ${(withLoc - without).toFixed(1)} µs/page (${((withLoc / without - 1) * 100).toFixed(0)}% over a bare pass)`);
  if (sides.length === 2) {
    for (const which of ['all pages', 'scanned pages']) {
      const ratio = median(times.get(`this analyse, ${which}`) ?? [0]) / median(times.get(`base analyse, ${which}`) ?? [1]);
      console.log(`  analyse, ${which}: after/before ${ratio.toFixed(3)}`);
    }
  }
}
console.log(`\nload average at the end ${load1()}`);
