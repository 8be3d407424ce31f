// **topical-cost**: what PageRank/HITS cost the topical strategy — one recompute on 10k/100k-node graphs, and per page amortised.
// Run: node_modules/.bin/node bench/topical-cost.ts [--json out.json]
import { Prng } from '../src/random/prng.ts';
import { writeFileSync } from 'node:fs';
import { createStrategy } from '../src/relevance/strategies/index.ts';
import type { LinkFeatures } from '../src/links/types.ts';
import { CrawlGraph } from '../src/topical/crawl-graph.ts';
import { GraphScores } from '../src/topical/graph-scores.ts';
import { computeHits } from '../src/topical/hits.ts';
import { computePageRank } from '../src/topical/page-rank.ts';

/** The shared mulberry32 generator as a function: every run generates the same data. */
const prng = (seed: number): (() => number) => {
  const g = new Prng(seed);
  return () => g.next();
};

const LINKS_PER_PAGE = 50;
const NEW_FRACTION = 0.2; // ~10 new nodes a page: a 100k-node graph after ~10k pages

/** Grows a crawl-like graph page by page; calls `onPage` after each. */
function grow(targetNodes: number, onPage: (g: CrawlGraph, url: string, links: string[]) => void = () => {}): CrawlGraph {
  const rnd = prng(42);
  const g = new CrawlGraph();
  g.ensure('http://s.example/');
  let next = 0;
  let fresh = 1;
  while (g.size < targetNodes) {
    const url = g.urlOf(next++);
    const links: string[] = [];
    for (let k = 0; k < LINKS_PER_PAGE; k++) {
      links.push(rnd() < NEW_FRACTION || g.size < 2 ? `http://s.example/p${fresh++}` : g.urlOf(Math.floor(rnd() * g.size)));
    }
    g.setPage(url, links);
    onPage(g, url, links);
  }
  return g;
}

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

const rows: Record<string, unknown>[] = [];
for (const n of [10_000, 100_000]) {
  const g = grow(n);
  const [pr, prMs] = time(() => computePageRank(g, { iterations: 20, tolerance: 0 }));
  const [, hitsMs] = time(() => computeHits(g, { iterations: 20, tolerance: 0 }));
  const [warm, warmMs] = time(() => computePageRank(g, { iterations: 20, start: pr.rank }));
  const pages = Math.ceil(g.size / (LINKS_PER_PAGE * NEW_FRACTION));
  // Amortised: GraphScores on the growing graph, default schedule k = max(50, 5% of pages).
  const g2 = new CrawlGraph();
  const scores = new GraphScores(g2);
  let pagesSeen = 0;
  const [, growMs] = time(() =>
    grow(n, (_g, url, links) => {
      g2.setPage(url, links);
      scores.notePage();
      pagesSeen++;
    }),
  );
  const [, baseMs] = time(() => grow(n, (_g, url, links) => void [url, links])); // the growth alone, to subtract
  rows.push({
    nodes: g.size,
    edges: g.edgeCount,
    pages,
    'PR 20 it (ms)': +prMs.toFixed(1),
    'HITS 20 it (ms)': +hitsMs.toFixed(1),
    'PR warm (it, ms)': `${warm.iterations}, ${warmMs.toFixed(1)}`,
    recomputes: scores.recomputes,
    'amortised per page (ms)': +((growMs - baseMs) / pagesSeen).toFixed(3),
  });
}
console.table(rows);

// The whole strategy per page (graph, filter, tree, LR, PR/HITS schedule, and judging 50 links), on a 10k-page crawl.
const s = createStrategy('topical');
const words = ['foaf', 'rdf', 'news', 'people', 'profile', 'football', 'data', 'member', 'weather', 'project', 'turtle', 'match'];
const rnd = prng(7);
const text = (k: number) => Array.from({ length: k }, () => words[Math.floor(rnd() * words.length)]).join(' ');
let judged = 0;
const PAGES = 10_000;
const [, stratMs] = time(() => {
  for (let i = 0; i < PAGES; i++) {
    const url = `http://s.example/p${i}`;
    const links: LinkFeatures[] = Array.from({ length: LINKS_PER_PAGE }, (_, k) => ({
      url: `http://s.example/p${rnd() < NEW_FRACTION ? i * LINKS_PER_PAGE + k : Math.floor(rnd() * (i + 1))}${k % 10 === 0 ? '.rdf' : ''}`,
      tag: 'a',
      anchor: text(2),
      title: '',
      type: '',
      rel: '',
      context: text(20),
    }));
    s.observePage!({ url, depth: i === 0 ? 0 : 1, type: 'html', text: text(300), links });
    for (const l of links) if (s.judge(l, { url, depth: 1, type: 'html' }).priority !== null) judged++;
    s.learn({ url, finalUrl: url, parent: i === 0 ? null : `http://s.example/p${Math.floor(rnd() * i)}`, status: 200, type: i % 7 === 0 ? 'rdf' : 'html', contentType: null, label: null, rules: [] });
  }
});
const [snap, snapMs] = time(() => JSON.stringify(s.snapshot()));
const [, restoreMs] = time(() => createStrategy('topical').restore(JSON.parse(snap)));
const strategyRow = {
  pages: PAGES,
  'links judged': judged,
  'per page incl. 50 judges (ms)': +(stratMs / PAGES).toFixed(3),
  'snapshot (MB)': +(snap.length / 1e6).toFixed(2),
  'snapshot (ms)': +snapMs.toFixed(0),
  'restore (ms)': +restoreMs.toFixed(0),
};
console.table([strategyRow]);

const jsonAt = process.argv.indexOf('--json');
if (jsonAt > 0 && process.argv[jsonAt + 1]) writeFileSync(process.argv[jsonAt + 1]!, JSON.stringify({ graph: rows, strategy: strategyRow }, null, 2));
