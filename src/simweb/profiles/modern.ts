// modern-like: schema.org JSON-LD and RDFa inside HTML, Turtle/JSON-LD alternates, N-Triples dumps, a sitemap named in robots.txt.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { WORDS } from './words.ts';

function buildModern(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const products = b.html('/products');
  const blog = b.html('/blog');
  const data = b.html('/data');
  const pages: number[] = [root, products, blog, data];
  b.link(root, products);
  b.link(root, blog);
  b.link(root, data);
  const nProducts = Math.max(2, Math.round(size * 0.35));
  let listing = products;
  for (let i = 0; i < nProducts; i++) {
    if (i % 30 === 0 && i > 0) {
      const next = b.html(`/products?page=${i / 30 + 1}`);
      b.link(listing, next, LinkStyle.next);
      listing = next;
      pages.push(next);
    }
    const slug = `${rng.pick(WORDS)}-${i + 1}`;
    const page = b.html(`/products/${slug}`, { embed: 'jsonld', vocab: 'schema', triples: rng.int(5, 12) });
    pages.push(page);
    b.link(listing, page);
    const r = rng.next();
    if (r < 0.6) b.link(page, b.rdf(`/products/${slug}.ttl`, 'turtle', 'schema', rng.int(8, 30)), LinkStyle.altTurtle);
    else if (r < 0.8) b.link(page, b.rdf(`/products/${slug}.jsonld`, 'jsonld', 'schema', rng.int(8, 30)), LinkStyle.altJsonLd);
  }
  for (let i = 0, k = Math.max(1, Math.round(size * 0.2)); i < k; i++) {
    const post = b.html(`/blog/${2018 + (i % 6)}/${rng.pick(WORDS)}-${i + 1}`, { embed: 'rdfa', vocab: 'schema', triples: rng.int(3, 6) });
    pages.push(post);
    b.link(blog, post);
  }
  for (let i = 0, k = Math.max(1, Math.round(size * 0.005)); i < k; i++) {
    b.link(data, b.rdf(`/data/dump-${i + 1}.nt`, 'ntriples', 'schema', rng.int(50, 400)), LinkStyle.download);
  }
  b.link(data, b.rdf('/data/catalog.ttl', 'turtle', 'schema', rng.int(10, 30)), LinkStyle.altTurtle);
  b.link(root, b.sitemap('/sitemap.xml'));
  b.robots.sitemap = true;
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.06 });
}

/** modern-like: embedded JSON-LD/RDFa, `<link rel=alternate type=text/turtle>`, sitemap in robots.txt. */
export const modernProfile: Profile = {
  name: 'modern-like',
  description: 'shop and blog with schema.org JSON-LD and RDFa in HTML, Turtle/JSON-LD alternates, N-Triples dumps, sitemap.xml named in robots.txt',
  sites: [{ host: 'www.modern-sim.com', name: 'Modern shop (simulated)', shortName: 'modern', size: 3000, build: buildModern }],
};
