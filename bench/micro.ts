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
      return (d) => {
        const x = extractLinks(d.text, d.url);
        return `${x.links.length}:${x.links.map((l) => l.url).join(' ').length}`;
      };
    },
  },
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
