// bandit-late / bandit-dry / bandit-rich / bandit-many: site sets whose external-link yield changes as a site is crawled breadth-first.
import type { Prng } from '../../random/prng.ts';
import { samplePoisson } from '../../random/samplers.ts';
import type { SiteBuilder } from '../site-graph.ts';
import type { Profile, ProfileSite } from './profile.ts';

/** The expected external links of the j-th page of a site in breadth-first order (j = 0: the start page). */
type RateOf = (j: number) => number;

/** The external links of the j-th page in breadth-first order. */
export type CountOf = (j: number) => number;

/** Poisson(rateOf(j)) external links on page j. */
function poissonCounts(rng: Prng, rateOf: RateOf): CountOf {
  return (j) => samplePoisson(rng, rateOf(j));
}

/**
 * A site whose pages are numbered in breadth-first order: page j's parent is an earlier page, and a parent's
 * children are consecutive, so a breadth-first crawl (FIFO or by depth) fetches the pages in id order. Page j
 * carries countOf(j) external links (BeeBot §3: X(i, j) in BFS order).
 */
export function buildSequenceSite(b: SiteBuilder, rng: Prng, size: number, countOf: CountOf): void {
  const root = b.html('/');
  b.docs[root]!.external = countOf(0);
  let parent = 0;
  let kidsLeft = rng.int(4, 12);
  for (let j = 1; j < size; j++) {
    while (kidsLeft === 0) {
      parent++;
      kidsLeft = rng.int(1, 6);
    }
    kidsLeft--;
    const page = b.html(`/s${parent}/page-${j}.html`);
    b.link(parent, page);
    b.link(page, root); // navigation: every page links home
    b.docs[page]!.external = countOf(j);
  }
}

/** A site size drawn around the profile's (scaled) size: × 0.5 to × 1.5. */
function sizeAround(rng: Prng, size: number): number {
  return Math.max(30, Math.round(size * (0.5 + rng.next())));
}

/**
 * (a) External links only past a late start: half the sites pay a little from their first page (0.15–0.5 per
 * page), the other half nothing for their first 100–900 pages, then 1–3 per page. A rule that judges a site by its
 * first pages settles on the poor early payers.
 */
function lateSite(b: SiteBuilder, rng: Prng, size: number): void {
  const n = sizeAround(rng, size);
  if (rng.chance(0.5)) {
    const rate = 0.15 + 0.35 * rng.next();
    buildSequenceSite(b, rng, n, poissonCounts(rng, () => rate));
  } else {
    const start = Math.round(100 + 800 * rng.next());
    const rate = 1 + 2 * rng.next();
    buildSequenceSite(b, rng, n, poissonCounts(rng, (j) => (j < start ? 0 : rate)));
  }
}

/**
 * (b) Links drying up early: 60% of the sites are rich (1–4 per page) for their first 20–300 pages and nearly
 * dry after (0.03); the others pay a steady 0.2–0.6. A rule that remembers a site's early riches stays too long.
 */
function drySite(b: SiteBuilder, rng: Prng, size: number): void {
  const n = sizeAround(rng, size);
  if (rng.chance(0.6)) {
    const front = Math.round(20 + 280 * rng.next());
    const rate = 1 + 3 * rng.next();
    buildSequenceSite(b, rng, n, poissonCounts(rng, (j) => (j < front ? rate : 0.03)));
  } else {
    const rate = 0.2 + 0.4 * rng.next();
    buildSequenceSite(b, rng, n, poissonCounts(rng, () => rate));
  }
}

/** (c) A few rich sites among poor ones: a site is rich (1.5–3 per page) with probability 0.2, else poor (0.02–0.2). */
function richSite(b: SiteBuilder, rng: Prng, size: number): void {
  const n = sizeAround(rng, size);
  const rate = rng.chance(0.2) ? 1.5 + 1.5 * rng.next() : 0.02 + 0.18 * rng.next();
  buildSequenceSite(b, rng, n, poissonCounts(rng, () => rate));
}

/** (d) Many small sites with a few links each: 1–8 external links on a site of ~30–150 pages, on random pages. */
function manySite(b: SiteBuilder, rng: Prng, size: number): void {
  const n = sizeAround(rng, size);
  const links = rng.int(1, 8);
  const where = new Map<number, number>();
  for (let k = 0; k < links; k++) {
    const j = rng.nextInt(n);
    where.set(j, (where.get(j) ?? 0) + 1);
  }
  buildSequenceSite(b, rng, n, (j) => where.get(j) ?? 0);
}

function sites(prefix: string, count: number, size: number, build: ProfileSite['build']): ProfileSite[] {
  return Array.from({ length: count }, (_, k) => {
    const short = `${prefix}${String(k + 1).padStart(2, '0')}`;
    return { host: `www.${short}-sim.org`, name: `${prefix} site ${k + 1} (simulated)`, shortName: short, size, build };
  });
}

/** The four kinds of changing site sets, by profile name. */
export const banditLateProfile: Profile = {
  name: 'bandit-late',
  description: '10 sites (~2000 pages): half pay a little from the start, half nothing for 100–900 pages, then much',
  sites: sites('late', 10, 2000, lateSite),
};

export const banditDryProfile: Profile = {
  name: 'bandit-dry',
  description: '10 sites (~2000 pages): most rich for their first 20–300 pages then dry, the others steady and modest',
  sites: sites('dry', 10, 2000, drySite),
};

export const banditRichProfile: Profile = {
  name: 'bandit-rich',
  description: '12 sites (~2000 pages): each rich with probability 0.2, else poor; steady yields',
  sites: sites('rich', 12, 2000, richSite),
};

export const banditManyProfile: Profile = {
  name: 'bandit-many',
  description: '40 small sites (~30–150 pages) with 1–8 external links each, on random pages',
  sites: sites('many', 40, 90, manySite),
};
