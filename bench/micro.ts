// **micro** times one part of the crawl path, per item, on this checkout against another (`--base DIR|COMMIT`), both
// loaded in one process and run in alternating rounds (A B B A …) on the same inputs from the simulated web. It prints
// CPU µs per item (medians of the rounds), the ratio this / base, and how many items the two sides answered
// differently (an answer is a digest of the result: a speed-up that changes answers is a bug).
// Run: node_modules/.bin/node bench/micro.ts CASE [--base DIR|COMMIT] [--rounds 6] [--items 2000] [--profiles mixed]
// A COMMIT is exported with `git archive` into a temporary folder (src/, data/, package.json) that uses this
// checkout's node_modules. Without --base only this checkout is timed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { HttpExchange } from '../src/fetch/types.ts';
import { buildWeb, respond } from '../src/simweb/index.ts';
import { cpuMark, cpuMsSince } from './lib/cpu-time.ts';
import { simwebHtmlPages } from './lib/simweb-html-pages.ts';
import { median } from './lib/stats.ts';

/** One document as the simulated web serves it. */
interface Served {
  url: string;
  body: Buffer;
  text: string;
  contentType: string | null;
}

/** The work of one item on one side; returns a digest of the answer, compared across sides. */
type Step = (item: Served) => string | Promise<string>;

interface MicroCase {
  what: string;
  /** The items, from this checkout's simulated web. */
  items(profiles: string, max: number): Served[];
  /** The step as the sources under `root` implement it. */
  load(root: string): Promise<Step>;
}

const ROOT = resolve(import.meta.dirname, '..');
const load = async <T>(root: string, path: string): Promise<T> => (await import(join(root, path))) as T;

/** HTML pages of the web, as `Served`. */
function htmlItems(profiles: string, max: number): Served[] {
  return simwebHtmlPages(profiles, max).map((p) => ({ url: p.url, body: p.body, text: p.html, contentType: p.contentType }));
}

/** Every document the web serves under `accept`, of the kinds `keep` wants, up to `max`. */
function servedItems(profiles: string, max: number, accept: string, keep: (contentType: string) => boolean): Served[] {
  const web = buildWeb({ profiles, scale: 0.5, seed: 1 });
  const out: Served[] = [];
  for (const site of web.sites) {
    for (const doc of site.docs) {
      const url = `http://${site.host}${doc.path}`;
      const r = respond(web, url, accept);
      const contentType = r.headers['content-type'] === undefined ? null : String(r.headers['content-type']);
      if (r.status !== 200 || r.body.length === 0 || !keep(contentType ?? '')) continue;
      out.push({ url, body: r.body, text: r.body.toString('utf8'), contentType });
      if (out.length >= max) return out;
    }
  }
  return out;
}

const RDF_TYPES = /turtle|n-triples|n-quads|rdf\+xml|ld\+json|trig|n3|application\/xml|application\/json|text\/plain/;

/**
 * One fetch as `--warc` archives it (robots.txt aside): the request/response pair of a 200 with the document's body,
 * in 1–3 chunks as undici hands them over, and the fetch's metadata record (a representative entry and result).
 */
function warcExchange(d: Served, i: number): { x: HttpExchange; meta: Record<string, unknown> } {
  const chunks: Buffer[] = [];
  for (let at = 0; at < d.body.length; at += 1024 + ((i * 977) % 2048)) chunks.push(d.body.subarray(at, at + 1024 + ((i * 977) % 2048)));
  const x: HttpExchange = {
    fetchId: String(i),
    url: d.url,
    requestHeaders: { accept: 'text/turtle, application/rdf+xml;q=0.9, application/ld+json;q=0.8, text/html;q=0.5, */*;q=0.1', 'user-agent': 'rdfscout/0.1 (+https://example.org/rdfscout)', 'accept-encoding': 'gzip, deflate, br' },
    date: new Date(1_790_000_000_000 + i * 1000).toISOString(),
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': d.contentType ?? 'application/octet-stream', 'content-length': String(d.body.length), date: 'Sun, 29 Nov 2026 05:00:00 GMT', connection: 'keep-alive', 'keep-alive': 'timeout=5' },
    body: chunks,
    truncated: null,
  };
  const pld = new URL(d.url).hostname;
  const meta = {
    outcome: 'recorded',
    entry: { url: d.url, pld, priority: 0.5, depth: 3, parent: `http://${pld}/index.html`, link: { anchor: 'a link', tag: 'a' }, rules: ['seed-site'], attempts: 1, label: null },
    result: { url: d.url, finalUrl: d.url, status: 200, contentType: d.contentType, bytes: d.body.length, redirects: [], error: null, ms: 12 },
    seq: i,
    ms: 14,
    fetchedAt: x.date,
    robotsSitemaps: [],
  };
  return { x, meta };
}

/** Everything the simulated web serves under the crawl's Accept (RDF and HTML): the bodies `--warc` archives. */
const crawlItems = (profiles: string, max: number): Served[] => servedItems(profiles, max, 'text/turtle, application/rdf+xml;q=0.9, application/ld+json;q=0.8, text/html;q=0.5', () => true);

/**
 * Pages of `links` links each (a catalogue, an index), as sites serve them: path-absolute, relative, absolute
 * (other hosts), with fragments, queries (`&amp;`), repeats, `javascript:` and `mailto:` hrefs, each in a list item
 * with a few words. For the cost of the links past --max-links-per-doc.
 */
function manyLinkPages(links: number, pages: number): Served[] {
  const out: Served[] = [];
  for (let p = 0; p < pages; p++) {
    const items: string[] = [];
    for (let k = 0; k < links; k++) {
      const r = (k * 7919 + p * 104_729) % 100;
      const href =
        r < 60
          ? `/section-${k % 17}/item-${p}-${k}.html`
          : r < 72
            ? `item-${k}.html`
            : r < 78
              ? `http://Other${k % 5}.example.org/x/${k}`
              : r < 84
                ? `/section-${k % 17}/item-${p}-${k}.html#part-${k % 3}`
                : r < 90
                  ? `/list?page=${k}&amp;sort=asc`
                  : r < 97
                    ? `/section-${(k - 7) % 17}/item-${p}-${Math.max(0, k - 7)}.html`
                    : r < 99
                      ? 'javascript:void(0)'
                      : `mailto:someone${k}@example.org`;
      items.push(`<li class="item"><a href="${href}" title="Item ${k}">Item number ${k}</a> about thing ${k % 97} and more</li>`);
    }
    const html = `<!doctype html><html><head><title>Catalogue ${p}</title></head><body><h1>Catalogue ${p}</h1><ul>\n${items.join('\n')}\n</ul></body></html>`;
    out.push({ url: `http://catalogue${p % 4}.example.org/cat/${p}/index.html`, body: Buffer.from(html), text: html, contentType: 'text/html' });
  }
  return out;
}

/** extractLinks as a bfs crawl calls it (500 links kept, no page text), with `opts`; the answer names the links and the count past the cap. */
const extractCase = (what: string, links: number, opts: Record<string, unknown>): MicroCase => ({
  what,
  items: (_profiles, max) => manyLinkPages(links, Math.min(max, 24)),
  async load(root) {
    const { extractLinks } = await load<typeof import('../src/links/extract-links.ts')>(root, 'src/links/extract-links.ts');
    return (d) => {
      const x = extractLinks(d.text, d.url, { maxLinks: 500, maxTextChars: 0, ...opts });
      return `${x.links.length}:${x.beyond}:${x.bad.length}:${x.links.map((l) => l.url).join(' ').length}`;
    };
  },
});

const CASES: Record<string, MicroCase> = {
  sniff: {
    what: 'detectType: what a body really is, from its first 64 kB (src/rdf/sniff.ts)',
    items: (profiles, max) => servedItems(profiles, max, '*/*', () => true),
    async load(root) {
      const { detectType } = await load<typeof import('../src/rdf/sniff.ts')>(root, 'src/rdf/sniff.ts');
      return (d) => JSON.stringify(detectType(d.body, d.contentType, d.url));
    },
  },
  hints: {
    what: 'embeddedHints: the cheap look for RDFa, Microdata and RDF scripts before an HTML page is parsed (src/rdf/parse-embedded.ts)',
    items: htmlItems,
    async load(root) {
      const { embeddedHints } = await load<typeof import('../src/rdf/parse-embedded.ts')>(root, 'src/rdf/parse-embedded.ts');
      return (d) => JSON.stringify(embeddedHints(d.text));
    },
  },
  'extract-links': {
    what: "extractLinks: an HTML page's links with their features, in one tokenizer pass (src/links/extract-links.ts)",
    items: htmlItems,
    async load(root) {
      const { extractLinks } = await load<typeof import('../src/links/extract-links.ts')>(root, 'src/links/extract-links.ts');
      // The whole answer (every link's features, the text, the title), so that a change of any feature counts.
      return (d) => JSON.stringify(extractLinks(d.text, d.url));
    },
  },
  'links-beyond': extractCase('extractLinks on pages of 3,000 links: 500 kept, the distinct crawlable links past the cap counted (src/links/extract-links.ts)', 3000, {}),
  'links-capped': extractCase('extractLinks on pages of 3,000 links, nothing counted past the cap (maxBeyond 0): the cost of the links kept alone', 3000, { maxBeyond: 0 }),
  'parse-rdf': {
    what: 'parseDocument: an RDF document parsed to quads (src/rdf/parse-document.ts)',
    items: (profiles, max) => servedItems(profiles, max, 'text/turtle, application/rdf+xml;q=0.9, application/ld+json;q=0.8', (t) => RDF_TYPES.test(t)),
    async load(root) {
      const { detectType } = await load<typeof import('../src/rdf/sniff.ts')>(root, 'src/rdf/sniff.ts');
      const { parseDocument } = await load<typeof import('../src/rdf/parse-document.ts')>(root, 'src/rdf/parse-document.ts');
      return async (d) => {
        const parsed = await parseDocument(d.text, detectType(d.body, d.contentType, d.url), d.url);
        return `${parsed.quads.length}:${parsed.error === null ? '' : 'error'}`;
      };
    },
  },
  embedded: {
    what: 'parseEmbedded: the JSON-LD, RDFa and Microdata of an HTML page (src/rdf/parse-embedded.ts)',
    items: htmlItems,
    async load(root) {
      const { parseEmbedded } = await load<typeof import('../src/rdf/parse-embedded.ts')>(root, 'src/rdf/parse-embedded.ts');
      return async (d) => `${(await parseEmbedded(d.text, d.url)).quads.length}`;
    },
  },
  warc: {
    what: "--warc: a fetch's request, response and metadata records framed, digested, gzipped and written to a file, 8 fetches per write (src/warc/)",
    items: crawlItems,
    async load(root) {
      const { exchangeRecords } = await load<typeof import('../src/warc/warc-records.ts')>(root, 'src/warc/warc-records.ts');
      const { fetchMetadataRecord } = await load<typeof import('../src/warc/warc-records.ts')>(root, 'src/warc/warc-records.ts');
      const { WarcWriter } = await load<typeof import('../src/warc/warc-writer.ts')>(root, 'src/warc/warc-writer.ts');
      const dir = mkdtempSync(join(tmpdir(), 'rdfscout-micro-warc-'));
      process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
      const writer = await WarcWriter.open({ target: `${dir}/` });
      const fetches = new Map<Served, { x: HttpExchange; meta: Record<string, unknown> }>();
      let n = 0;
      return async (d) => {
        let f = fetches.get(d);
        if (f === undefined) fetches.set(d, (f = warcExchange(d, fetches.size)));
        const records = exchangeRecords(f.x);
        const ids = [records[1].id];
        const group = [...records, fetchMetadataRecord(d.url, f.x.date, { ...f.meta, responses: ids }, records[1].id)];
        const written = writer.write(group);
        if (++n % 8 === 0) await written;
        return `${group.length}`;
      };
    },
  },
};


const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    items: { type: 'string', default: '2000' },
    profiles: { type: 'string', default: 'mixed' },
    help: { type: 'boolean', short: 'h' },
  },
});
const name = positionals[0];
if (values.help || name === undefined || CASES[name] === undefined) {
  console.log(`Usage: node bench/micro.ts CASE [--base DIR|COMMIT] [--rounds 6] [--items 2000] [--profiles mixed]\n\nCases:`);
  for (const [n, c] of Object.entries(CASES)) console.log(`  ${n.padEnd(14)} ${c.what}`);
  process.exit(values.help ? 0 : 2);
}
const micro = CASES[name] as MicroCase;

/** The base's sources: a folder as given, or a commit exported into a temporary folder (removed at exit). */
function baseRoot(base: string): string {
  if (existsSync(base) && statSync(base).isDirectory()) return resolve(base);
  const dir = mkdtempSync(join(tmpdir(), 'rdfscout-micro-base-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const tar = execFileSync('git', ['-C', ROOT, 'archive', base, 'src', 'data', 'package.json'], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const items = micro.items(values.profiles, Number(values.items));
const sides: Array<{ label: string; step: Step }> = [{ label: 'this', step: await micro.load(ROOT) }];
if (values.base !== undefined) sides.push({ label: `base ${values.base}`, step: await micro.load(baseRoot(values.base)) });

// Same answers? (Also the warm-up: every side runs every item once before any round is timed.)
const answers = await Promise.all(sides.map(async (s) => Promise.all(items.map(async (d) => s.step(d)))));
const different = sides.length < 2 ? 0 : items.filter((_, i) => answers[0]?.[i] !== answers[1]?.[i]).length;

const rounds = Number(values.rounds);
const micros = sides.map(() => [] as number[]);
for (let r = 0; r < rounds; r++) {
  const order = r % 4 === 1 || r % 4 === 2 ? [...sides.keys()].reverse() : [...sides.keys()];
  for (const k of order) {
    const step = (sides[k] as { step: Step }).step;
    const mark = cpuMark();
    for (const d of items) await step(d);
    (micros[k] as number[]).push((cpuMsSince(mark) * 1000) / items.length);
  }
}

const chars = items.reduce((n, d) => n + d.text.length, 0) / Math.max(1, items.length);
console.log(`micro ${name}: ${micro.what}`);
console.log(`${items.length} items from the simulated web "${values.profiles}" (mean ${(chars / 1024).toFixed(1)} k chars); ${rounds} rounds; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
sides.forEach((s, k) => {
  const xs = micros[k] as number[];
  console.log(`  ${s.label.padEnd(24)} ${median(xs).toFixed(2)} µs CPU per item  [${xs.map((x) => x.toFixed(1)).join(' ')}]`);
});
if (sides.length === 2) {
  const ratio = median(micros[0] as number[]) / median(micros[1] as number[]);
  console.log(`  this / base: ${ratio.toFixed(3)}; items answered differently: ${different}`);
}
