// beebot-ras / beebot-univ: 10-site sets sized like BeeBot §4 Table 1, with the article's external-link distributions.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { addCalendar, addNoise } from './noise.ts';
import type { Profile, ProfileSite } from './profile.ts';
import { WORDS } from './words.ts';

type Shape = 'ras' | 'univ';
const SECTIONS = ['about', 'structure', 'science', 'news', 'education', 'library', 'publications', 'staff', 'conferences', 'contacts', 'projects', 'archive'];

/**
 * A generic institutional site: a breadth-first tree down to level 5 plus navigation links, with
 * `extLinks` external links spread by the shape (BeeBot §4): `ras` — most pages none, a few pages very many;
 * `univ` — one to three on many pages.
 */
function buildInstitution(b: SiteBuilder, rng: Prng, size: number, shape: Shape, extLinks: number, calendar: boolean): void {
  const root = b.html('/');
  const pages: number[] = [root];
  let frontier = [root];
  const target = Math.max(5, Math.round(size * 0.9));
  for (let level = 1; level <= 5 && pages.length < target; level++) {
    const next: number[] = [];
    const remainingLevels = 6 - level;
    const fanout = Math.max(2, Math.ceil(((target - pages.length) / frontier.length) ** (1 / remainingLevels)));
    for (const parent of frontier) {
      const kids = level === 1 ? Math.min(SECTIONS.length, Math.max(3, fanout)) : rng.int(1, fanout * 2 - 1);
      for (let k = 0; k < kids && pages.length < target; k++) {
        const parentPath = b.docs[parent]?.path === '/' ? '' : (b.docs[parent]?.path.replace(/\.html$/, '') ?? '');
        const seg = level === 1 ? (SECTIONS[k] as string) : `${rng.pick(WORDS)}-${pages.length}`;
        const page = b.html(level >= 3 ? `${parentPath}/${seg}.html` : `${parentPath}/${seg}`);
        b.link(parent, page);
        if (level > 1) b.link(page, parent);
        pages.push(page);
        next.push(page);
      }
    }
    if (next.length === 0) break;
    frontier = next;
  }
  // Navigation: every page links home and the first sections.
  for (const p of pages.slice(1)) b.link(p, 0);
  distributeExternal(b, rng, pages, shape, extLinks);
  if (calendar) addCalendar(b, pages[1] ?? root, '/events/calendar', 2011, 24);
  addNoise(b, rng, pages, { errorRate: 0.04, binaryRate: 0.05 });
}

function distributeExternal(b: SiteBuilder, rng: Prng, pages: readonly number[], shape: Shape, total: number): void {
  const add = (page: number, n: number): void => {
    const doc = b.docs[page];
    if (doc) doc.external += n;
  };
  let left = total;
  if (shape === 'ras') {
    // A few "links"/"partners" pages carry most external links; a handful of pages have one or two.
    const heavy = Math.max(1, Math.round(pages.length * 0.004));
    let heavyShare = Math.round(total * 0.85);
    for (let i = 0; i < heavy && heavyShare > 0; i++) {
      const n = i === heavy - 1 ? heavyShare : Math.min(heavyShare, Math.max(20, Math.round(heavyShare / (heavy - i)) + rng.int(-5, 5)));
      add(rng.pick(pages), n);
      heavyShare -= n;
      left -= n;
    }
    while (left > 0) {
      const n = Math.min(left, rng.int(1, 2));
      add(rng.pick(pages), n);
      left -= n;
    }
  } else {
    while (left > 0) {
      const n = Math.min(left, rng.int(1, 3));
      add(rng.pick(pages), n);
      left -= n;
    }
  }
}

function institution(shape: Shape, short: string, name: string, size: number, ext: number, calendar = false): ProfileSite {
  return {
    host: `www.${short}-sim.ru`,
    name: `${name} (simulated)`,
    shortName: short,
    size,
    // External links scale with the site: ext per page stays as in Table 1.
    build: (b, rng, scaled) => buildInstitution(b, rng, scaled, shape, Math.round((ext * scaled) / size), calendar),
  };
}

/** beebot-ras: Academy-of-Sciences institutes (Table 1's five plus five alike). */
export const beebotRasProfile: Profile = {
  name: 'beebot-ras',
  description: '10 RAS-institute-like sites (BeeBot Table 1 sizes): most pages without external links, a few pages with very many',
  sites: [
    institution('ras', 'binran', 'Komarov Botanical Institute', 1298, 29),
    institution('ras', 'zin', 'Zoological Institute', 1100, 69),
    institution('ras', 'orientalstudies', 'Institute of Oriental Manuscripts', 2411, 48),
    institution('ras', 'pushkinskijdom', 'Pushkin House', 39292, 3192),
    institution('ras', 'iling', 'Institute for Linguistic Studies', 3523, 129),
    institution('ras', 'spbrc', 'St Petersburg Research Centre', 2100, 40),
    institution('ras', 'iephb', 'Institute of Evolutionary Physiology', 950, 15),
    institution('ras', 'infran', 'Institute of History', 1700, 60),
    institution('ras', 'ihst', 'Institute for the History of Science', 1250, 22),
    institution('ras', 'gao', 'Pulkovo Observatory', 3100, 95),
  ],
};

/** beebot-univ: universities (Table 1's five plus five alike); one has a calendar trap. */
export const beebotUnivProfile: Profile = {
  name: 'beebot-univ',
  description: '10 university-like sites (BeeBot Table 1 sizes): one to three external links on many pages',
  sites: [
    institution('univ', 'pgups', 'Transport University', 431, 19),
    institution('univ', 'rshu', 'Hydrometeorological University', 1766, 409),
    institution('univ', 'spbstu', 'Polytechnic University', 1471, 214),
    institution('univ', 'spbu', 'State University', 12935, 903, true),
    institution('univ', 'finec', 'University of Economics', 7253, 1048),
    institution('univ', 'herzen', 'Pedagogical University', 5200, 640),
    institution('univ', 'itmo', 'University of Information Technologies', 4100, 520),
    institution('univ', 'spbgasu', 'University of Architecture', 2300, 260),
    institution('univ', 'lti', 'Institute of Technology', 1900, 210),
    institution('univ', 'spbgut', 'Telecommunications University', 2800, 330),
  ],
};
