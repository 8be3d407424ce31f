// **crawl-path-micro** times the pure per-page steps of the crawl path (link extraction, link judging) on simweb
// pages, for two copies of the source side by side in one process (issue 18: before/after in one run).
// Run: node_modules/.bin/node bench/lib/crawl-path-micro.ts [--base /tmp/base-checkout] [--pages 2000] [--rounds 5]
// Without --base it times this checkout only. Prints CPU ms per 1,000 pages (median of the rounds) and after/before.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { simwebHtmlPages } from './simweb-html-pages.ts';

const { values } = parseArgs({ options: { base: { type: 'string' }, pages: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' } } });
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);

interface Side {
  name: string;
  extractLinks: typeof import('../../src/links/index.ts').extractLinks;
  createStrategy: (name: string) => import('../../src/relevance/types.ts').Strategy;
}

async function load(name: string, root: string): Promise<Side> {
  const links = (await import(join(root, 'src/links/index.ts'))) as typeof import('../../src/links/index.ts');
  const strategies = (await import(join(root, 'src/strategies/index.ts'))) as Record<string, unknown>;
  const create = strategies.createStrategy as (name: string) => import('../../src/relevance/types.ts').Strategy;
  return { name, extractLinks: links.extractLinks, createStrategy: create };
}

const pages: Array<{ url: string; html: string }> = simwebHtmlPages('mixed', PAGES);

const sides = [await load('this', join(import.meta.dirname, '../..'))];
if (values.base) sides.unshift(await load('base', values.base));

/** CPU time of this process (user + system, ms): steadier than wall time on a loaded machine. */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const times = new Map<string, number[]>();
const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
const checks = new Map<string, string>(); // per side: every judgement and link, hashed (both sides must agree)
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const side of order) {
    const bfs = side.createStrategy('bfs');
    const fc = side.createStrategy('fc-r+hr');
    let t = cpuMs();
    const extracted = pages.map((p) => side.extractLinks(p.html, p.url, { maxLinks: 500 }));
    record(`${side.name} extractLinks`, cpuMs() - t);
    t = cpuMs();
    for (const p of pages) side.extractLinks(p.html, p.url, { maxLinks: 500, maxTextChars: 0 });
    record(`${side.name} extractLinks, no text`, cpuMs() - t);
    for (const [name, strategy] of [['bfs', bfs], ['fc-r+hr', fc]] as const) {
      t = cpuMs();
      const out: unknown[] = [];
      for (let i = 0; i < pages.length; i++) {
        const source = { url: pages[i]!.url, depth: 1, type: 'html' as const };
        for (const link of extracted[i]!.links) out.push(strategy.judge(link, source));
      }
      record(`${side.name} judge ${name}`, cpuMs() - t);
      if (round === 0) checks.set(`${side.name} ${name}`, createHash('sha1').update(JSON.stringify([out, extracted])).digest('hex').slice(0, 12));
    }
  }
}
// The floor: the minimal loop's parse5 tokenizer pass for links alone (bench/lib/minimal-loop.ts).
const { linksIn } = await import('./minimal-loop.ts');
for (let round = 0; round < ROUNDS; round++) {
  const t = cpuMs();
  for (const p of pages) linksIn(p.html, p.url);
  record('minimal-loop linksIn', cpuMs() - t);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const links = sides[0] ? pages.reduce((s, p) => s + sides[0]!.extractLinks(p.html, p.url).links.length, 0) : 0;
console.log(`${pages.length} simweb HTML pages, ${links} links, ${ROUNDS} rounds; output hashes ${[...checks].map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`  minimal loop's linksIn ${((median(times.get('minimal-loop linksIn') ?? [0]) / pages.length) * 1000).toFixed(0)} CPU ms/1k pages`);
for (const step of ['extractLinks', 'extractLinks, no text', 'judge bfs', 'judge fc-r+hr']) {
  const row = sides.map((s) => `${s.name} ${((median(times.get(`${s.name} ${step}`) ?? [0]) / pages.length) * 1000).toFixed(0)} CPU ms/1k pages`);
  const ratio = sides.length === 2 ? ` → after/before ${(median(times.get(`this ${step}`)!) / median(times.get(`base ${step}`)!)).toFixed(2)}` : '';
  console.log(`  ${step.padEnd(22)} ${row.join(', ')}${ratio}`);
}
