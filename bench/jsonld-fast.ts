// **jsonld-fast**: CPU per page of parseEmbedded on pages with one schema.org JSON-LD block, fast path vs jsonld-streaming-parser (issue 18).
// Run: node_modules/.bin/node bench/jsonld-fast.ts [--pages 1000] [--rounds 3]
// Prints CPU ms per page (user+sys of this process) for each shape with the fast path off and on, measured in
// alternating order in one run, their ratio, the same for the blocks alone (parseRdfText), what the rest of the page
// costs (the same page with an empty block), and the fast path's decline rate on the shapes and on the simweb's blocks.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { convertJsonLd } from '../src/rdf/jsonld-fast.ts';
import { parseEmbedded } from '../src/rdf/parse-embedded.ts';
import { parseRdfText } from '../src/rdf/parse-formats.ts';
import { resolveParseOptions } from '../src/rdf/parse-options.ts';
import { BlankNodeRelabeller, createBudget } from '../src/rdf/run-parser.ts';
import { simwebJsonLd } from '../test/rdf/jsonld-fast-simweb.ts';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' } } });
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);

/** schema.org blocks as real sites write them (Google's structured-data examples), numbered per page. */
const SHAPES: Record<string, (i: number) => unknown> = {
  Product: (i) => ({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: `Executive Anvil ${i}`,
    image: [`https://shop.example/photos/1x1/${i}.jpg`, `https://shop.example/photos/4x3/${i}.jpg`],
    description: 'Sleeker than ACME\'s Classic Anvil, the Executive Anvil is perfect for the business traveler.',
    sku: `0446310${i}`,
    brand: { '@type': 'Brand', name: 'ACME' },
    aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.4, reviewCount: 89 + i },
    offers: { '@type': 'Offer', url: `https://shop.example/anvil/${i}`, priceCurrency: 'USD', price: 119.99, availability: 'https://schema.org/InStock' },
  }),
  NewsArticle: (i) => ({
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: `Title of a News Article ${i}`,
    image: [`https://news.example/photos/1x1/${i}.jpg`, `https://news.example/photos/16x9/${i}.jpg`],
    datePublished: '2024-01-05T08:00:00+08:00',
    dateModified: '2024-02-05T09:20:00+08:00',
    author: [
      { '@type': 'Person', name: 'Jane Doe', url: 'https://news.example/profile/janedoe123' },
      { '@type': 'Person', name: 'John Doe', url: 'https://news.example/profile/johndoe123' },
    ],
    publisher: { '@type': 'Organization', name: 'The Daily', logo: { '@type': 'ImageObject', url: 'https://news.example/logo.png' } },
    mainEntityOfPage: { '@type': 'WebPage', '@id': `https://news.example/article/${i}` },
  }),
  BreadcrumbList: (i) => ({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: ['Books', 'Science Fiction', 'Award Winners', `Book ${i}`].map((name, k) => ({
      '@type': 'ListItem',
      position: k + 1,
      name,
      item: `https://books.example/${k}/${i}`,
    })),
  }),
  Organization: (i) => ({
    '@context': { '@vocab': 'https://schema.org/' },
    '@type': 'Organization',
    '@id': `https://org${i}.example/#org`,
    name: `Example Corp ${i}`,
    url: `https://org${i}.example/`,
    logo: `https://org${i}.example/logo.png`,
    sameAs: ['https://twitter.com/example', 'https://www.facebook.com/example', 'https://www.linkedin.com/company/example', 'https://en.wikipedia.org/wiki/Example'],
    contactPoint: { '@type': 'ContactPoint', telephone: '+1-401-555-1212', contactType: 'customer service' },
  }),
  Event: (i) => ({
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: `The Adventures of Kira and Morrison ${i}`,
    startDate: '2025-07-21T19:00-05:00',
    endDate: '2025-07-21T23:00-05:00',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    location: { '@type': 'Place', name: 'Snickerpark Stadium', address: { '@type': 'PostalAddress', streetAddress: '100 West Snickerpark Dr', addressLocality: 'Snickertown', postalCode: '19019', addressCountry: 'US' } },
    image: [`https://events.example/photos/${i}.jpg`],
    offers: { '@type': 'Offer', url: `https://events.example/event/${i}`, price: 30, priceCurrency: 'USD', availability: 'https://schema.org/InStock', validFrom: '2024-05-21T12:00' },
    performer: { '@type': 'PerformingGroup', name: 'Kira and Morrison' },
  }),
};

const page = (block: unknown): string =>
  `<!doctype html><html><head><title>x</title><script type="application/ld+json">${JSON.stringify(block, null, 2)}</script></head><body>${'<p>Some text of the page. </p>'.repeat(40)}<a href="/next">next</a></body></html>`;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms per block of parseRdfText on the blocks alone (no HTML), fast path on or off. */
async function measureBlocks(blocks: readonly string[], fast: boolean): Promise<number> {
  const mode = resolveParseOptions({ jsonLdFastPath: fast });
  const t0 = cpuMs();
  for (let i = 0; i < blocks.length; i++) {
    await parseRdfText(blocks[i] as string, 'application/ld+json', `https://site.example/page/${i}`, mode, createBudget(1e6, 30_000), new BlankNodeRelabeller('b_'));
  }
  return (cpuMs() - t0) / blocks.length;
}

async function measure(pages: readonly string[], fast: boolean): Promise<{ ms: number; quads: number }> {
  const mode = { jsonLdFastPath: fast };
  let quads = 0;
  const t0 = cpuMs();
  for (let i = 0; i < pages.length; i++) quads += (await parseEmbedded(pages[i] as string, `https://site.example/page/${i}`, mode)).quads.length;
  return { ms: (cpuMs() - t0) / pages.length, quads: quads / pages.length };
}

const config = resolveParseOptions();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`jsonld-fast bench: ${PAGES} pages per shape and mode, ${ROUNDS} rounds alternating the order; load average ${load()}`);
const rows: string[] = [];
let totalBefore = 0;
let totalAfter = 0;
for (const [shape, make] of Object.entries(SHAPES)) {
  const pages = Array.from({ length: PAGES }, (_, i) => page(make(i)));
  const blocks = Array.from({ length: PAGES }, (_, i) => JSON.stringify(make(i), null, 2));
  const declined = Array.from({ length: PAGES }, (_, i) => make(i)).filter((b) => convertJsonLd(JSON.stringify(b), 'https://site.example/', config) === null).length;
  await measure(pages.slice(0, 200), false); // warm-up of both paths
  await measure(pages.slice(0, 200), true);
  const off: number[] = [];
  const on: number[] = [];
  let quadsOff = 0;
  let quadsOn = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const fast of r % 2 === 0 ? [false, true] : [true, false]) {
      const m = await measure(pages, fast);
      (fast ? on : off).push(m.ms);
      if (fast) quadsOn = m.quads;
      else quadsOff = m.quads;
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const blockOff: number[] = [];
  const blockOn: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const fast of r % 2 === 0 ? [false, true] : [true, false]) (fast ? blockOn : blockOff).push(await measureBlocks(blocks, fast));
  }
  // The rest of the page's cost: the same page with an empty block (the tokenizer pass over the page that finds it).
  const scan = (await measure(pages.map((p) => p.replace(/(<script type="application\/ld\+json">)[\s\S]*?(<\/script>)/, '$1{}$2')), true)).ms;
  const before = median(off);
  const after = median(on);
  totalBefore += before;
  totalAfter += after;
  rows.push(
    `${shape.padEnd(15)} quads/page ${quadsOff.toFixed(0).padStart(3)}/${quadsOn.toFixed(0).padStart(3)}  page: library ${before.toFixed(3)} ms  fast ${after.toFixed(3)} ms  ratio ${(before / after).toFixed(1)}x  (of which the page scan ${scan.toFixed(3)})  block alone: library ${median(blockOff).toFixed(3)} ms  fast ${median(blockOn).toFixed(3)} ms  ratio ${(median(blockOff) / median(blockOn)).toFixed(1)}x  declined ${declined}/${PAGES}  (page rounds: library ${off.map((x) => x.toFixed(3)).join(' ')}; fast ${on.map((x) => x.toFixed(3)).join(' ')})`,
  );
  console.log(rows.at(-1));
}
console.log(`all shapes: library ${(totalBefore / rows.length).toFixed(3)} ms/page, fast ${(totalAfter / rows.length).toFixed(3)} ms/page, ratio ${(totalBefore / totalAfter).toFixed(1)}x`);
const sim = simwebJsonLd(1, 1000);
const simDeclined = sim.filter((d) => convertJsonLd(d.text, d.url, config) === null);
console.log(
  `simweb (seed 1, all profiles, scale 0.3): ${sim.filter((d) => d.embedded).length} embedded blocks, ${sim.filter((d) => !d.embedded).length} JSON-LD documents; declined ${simDeclined.filter((d) => d.embedded).length} blocks, ${simDeclined.filter((d) => !d.embedded).length} documents`,
);
console.log(`load average at the end ${load()}`);
