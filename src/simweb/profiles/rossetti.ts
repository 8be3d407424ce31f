// rossetti-like: a deep archive whose RDF sits at depth 4 under look-alike depth-3 index pages (thesis §11 Table 4-5, PLD 4).
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';

const CATEGORIES = ['pictures', 'poems', 'prose', 'doubleworks', 'manuscripts', 'printed', 'photographs', 'correspondence', 'translations', 'designs', 'sketches', 'paintings', 'essays', 'commentaries'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Categories whose depth-3 pages are criticism without RDF (path `/essays/…`), unlike the `/docs/…` pages. */
const NO_RDF = new Set(['essays', 'commentaries']);

function buildRossetti(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const pages: number[] = [root];
  // Depth 1: 20 pages (Table 4-5), 14 of them category browsers.
  const misc = ['/about', '/help', '/exhibits', '/bibliography', '/credits', '/contact'].map((p) => b.html(p));
  const cats = CATEGORIES.map((c) => b.html(`/browse/${c}`));
  for (const p of [...misc, ...cats]) {
    b.link(root, p);
    pages.push(p);
  }
  // Depth 2: letter pages (~133 at scale 1); depth 3: one index page per work (~0.34 of the site).
  const nLetters = Math.max(1, Math.min(LETTERS.length, Math.round((133 * Math.sqrt(size / 6053)) / CATEGORIES.length)));
  const nWorks = Math.max(CATEGORIES.length, Math.round(size * 0.34));
  const letterPages: number[][] = cats.map((cat, ci) => {
    const out: number[] = [];
    for (let l = 0; l < nLetters; l++) {
      const page = b.html(`/browse/${CATEGORIES[ci]}/${LETTERS[l]}`);
      b.link(cat, page);
      pages.push(page);
      out.push(page);
    }
    return out;
  });
  for (let w = 0; w < nWorks; w++) {
    const ci = w % CATEGORIES.length;
    const cat = CATEGORIES[ci] as string;
    const letterPage = letterPages[ci]?.[Math.floor(w / CATEGORIES.length) % nLetters] as number;
    const workId = `${cat[0]}${w + 1}`;
    const noRdf = NO_RDF.has(cat);
    const index = b.html(noRdf ? `/essays/${workId}` : `/docs/${workId}`);
    b.link(letterPage, index);
    pages.push(index);
    // Depth 4: the work's RDF (for 95% of /docs pages) and about 0.7 image views per work.
    if (!noRdf && rng.chance(0.95)) b.link(index, b.rdf(`/archive/rdf/${workId}.rdf`, 'rdfxml', 'archive', rng.int(12, 80)), LinkStyle.typedRdf);
    const views = rng.chance(0.7) ? 1 : 0;
    for (let v = 0; v < views; v++) {
      const view = b.html(`/docs/${workId}/view${v + 1}`);
      b.link(index, view);
      pages.push(view);
      // Depth 5–9: zoom chains without RDF.
      let parent = view;
      for (let z = 0, zn = rng.chance(0.5) ? rng.int(1, 5) : 0; z < zn; z++) {
        const zoom = b.html(`/docs/${workId}/view${v + 1}/zoom${z + 1}`);
        b.link(parent, zoom);
        parent = zoom;
      }
      if (rng.chance(0.3)) b.link(view, b.binary(`/img/${workId}-${v + 1}.jpg`));
    }
  }
  // A few RDF documents at depth 3, linked from letter pages (Table 4-5: 35 of 2043).
  letterPages.flat().forEach((lp, i) => {
    if (i % 4 === 0) b.link(lp, b.rdf(`/archive/rdf/featured-${i}.rdf`, 'rdfxml', 'archive', rng.int(12, 40)), LinkStyle.typedRdf);
  });
  addNoise(b, rng, pages.slice(0, 1 + misc.length + cats.length), { errorRate: 0.03, binaryRate: 0.01, duplicateRate: 0.005 });
}

/** rossetti-like: RDF at depth 4 under depth-3 `/docs/<id>` index pages; deeper HTML has none. */
export const rossettiProfile: Profile = {
  name: 'rossetti-like',
  description: 'deep archive: RDF at depth 4 under alike depth-3 /docs/<id> pages; /essays/<id> pages and deeper zoom pages without RDF',
  sites: [{ host: 'www.rossetti-sim.org', name: 'Rossetti Archive (simulated)', shortName: 'rossetti', size: 6053, build: buildRossetti }],
};
