// generated-<seed>: site sets drawn from a seed, for judging the PLD bandit on sets it was never tuned on (BeeBot §3–4).
//
// A set has 5 to 60 PLDs. Each site draws, independently for its two rewards (external links — BeeBot's reward —
// and RDF documents — the thesis's), a shape of reward per fetch in breadth-first order: steady, rich then dry,
// barren then rich, rich only deep down, or barren; the level runs from barren to rich on a log scale. Sizes run
// from a few pages to tens of thousands (log scale), and link fan-out, slow responses, robots Crawl-delay and error
// pages vary by site. The set is a function of its seed alone; the web seed only varies the small noise inside pages.
import { Prng } from '../../random/prng.ts';
import { samplePoisson } from '../../random/samplers.ts';
import { LinkStyle } from '../types.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { addNoise } from './noise.ts';
import type { Profile, ProfileSite } from './profile.ts';

/** The shapes of reward per fetch over a site's breadth-first order. */
export const REWARD_SHAPES = ['steady', 'dry', 'late', 'deep', 'barren'] as const;
type RewardShape = (typeof REWARD_SHAPES)[number];

/** One reward's schedule on one site: the expected reward of the page at breadth-first position j of n. */
export interface RewardPlan {
  shape: RewardShape;
  /** Expected reward per page while the site pays (per page: external links, or RDF documents linked). */
  rate: number;
  /**
   * A share of the site, so that the shape holds at any `--scale`: dry, the share (from the start) that pays; late,
   * the share before paying starts; deep, the share (from the end) that pays.
   */
  turn: number;
}

/** Everything drawn for one site of a generated set (kept so that tests and reports can say what a set holds). */
interface GeneratedSite {
  short: string;
  size: number;
  /** Children per page: the site's link rate (1 = a chain, 12 = a bushy tree). */
  fanout: [number, number];
  external: RewardPlan;
  rdf: RewardPlan;
  /** Share of pages answered late (the simulated web's `slowMs`). */
  slowShare: number;
  /** robots.txt Crawl-delay in seconds, if the site declares one. */
  crawlDelay: number | undefined;
  /** Share of extra URLs that answer 404/5xx. */
  errorRate: number;
}

export interface GeneratedSet {
  seed: number;
  sites: GeneratedSite[];
}

/** The profile-name form of a generated set: `generated-17`. */
export const GENERATED_PATTERN = /^generated-(\d{1,9})$/;

/** A log-uniform draw in [lo, hi]. */
function logUniform(rng: Prng, lo: number, hi: number): number {
  return Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * rng.next());
}

function drawPlan(rng: Prng): RewardPlan {
  const shape = rng.pick(REWARD_SHAPES);
  // From barren (one reward in 200 fetches) to rich (3 a fetch).
  const rate = shape === 'barren' ? logUniform(rng, 0.001, 0.02) : logUniform(rng, 0.005, 3);
  const turn =
    shape === 'dry' ? logUniform(rng, 0.01, 0.3)
    : shape === 'late' ? 0.1 + 0.6 * rng.next()
    : shape === 'deep' ? 0.15 + 0.35 * rng.next()
    : 0;
  return { shape, rate, turn };
}

/**
 * The page where a dry site stops paying or a late one starts, in a site of n pages as built: from the site's
 * built size, not its drawn one, so that a late site turns at `--scale 0.1` too (at least 3 pages in).
 */
export function turnPage(plan: RewardPlan, n: number): number {
  return Math.max(3, Math.round(n * plan.turn));
}

/** The expected reward of page j (breadth-first position) of a site of n pages (as built) under `plan`. */
export function expectedReward(plan: RewardPlan, j: number, n: number): number {
  switch (plan.shape) {
    case 'steady':
    case 'barren':
      return plan.rate;
    case 'dry':
      return j < turnPage(plan, n) ? plan.rate : plan.rate * 0.02;
    case 'late':
      return j < turnPage(plan, n) ? 0 : plan.rate;
    case 'deep':
      return j >= n * (1 - plan.turn) ? plan.rate : 0;
  }
}

/** Draws the set of seed `seed` (a pure function of the seed). */
export function drawSiteSet(seed: number): GeneratedSet {
  const rng = Prng.of('generated-set', seed);
  const count = rng.int(5, 60);
  const sites: GeneratedSite[] = [];
  for (let i = 0; i < count; i++) {
    const size = Math.round(logUniform(rng, 4, 30_000));
    const lo = rng.int(1, 3);
    sites.push({
      short: `g${seed}s${String(i + 1).padStart(2, '0')}`,
      size,
      fanout: [lo, lo + rng.int(0, 9)],
      external: drawPlan(rng),
      rdf: drawPlan(rng),
      slowShare: rng.chance(0.3) ? 0.05 + 0.25 * rng.next() : 0,
      crawlDelay: rng.chance(0.25) ? rng.pick([0.01, 0.02, 0.05]) : undefined,
      errorRate: rng.chance(0.5) ? 0.1 * rng.next() : 0,
    });
  }
  return { seed, sites };
}

/**
 * Builds one generated site: pages numbered in breadth-first order (a parent's children are consecutive, so a
 * breadth-first crawl fetches page j as its j-th HTML page), page j with Poisson(external(j)) external links and
 * Poisson(rdf(j)) RDF documents of its own, linked as RDF (`<a href>RDF</a>`).
 */
function buildGeneratedSite(b: SiteBuilder, rng: Prng, site: GeneratedSite, n: number): void {
  const pages: number[] = [b.html('/')];
  let parent = 0;
  let kidsLeft = rng.int(site.fanout[0], site.fanout[1]);
  for (let j = 1; j < n; j++) {
    while (kidsLeft === 0) {
      parent++;
      kidsLeft = rng.int(site.fanout[0], site.fanout[1]);
    }
    kidsLeft--;
    const page = b.html(`/p${parent}/page-${j}.html`);
    b.link(pages[parent]!, page);
    b.link(page, pages[0]!);
    pages.push(page);
  }
  for (let j = 0; j < n; j++) {
    const doc = b.docs[pages[j]!]!;
    doc.external = samplePoisson(rng, expectedReward(site.external, j, n));
    if (rng.chance(site.slowShare)) doc.slow = true;
    const rdf = samplePoisson(rng, expectedReward(site.rdf, j, n));
    for (let k = 0; k < rdf; k++) {
      const id = b.rdf(`/data/${j}-${k}.ttl`, 'turtle', 'foaf', 5 + rng.nextInt(20));
      b.link(pages[j]!, id, LinkStyle.rdfAnchor);
    }
  }
  if (site.crawlDelay !== undefined) b.robots.crawlDelay = site.crawlDelay;
  if (site.errorRate > 0) addNoise(b, rng, pages, { errorRate: site.errorRate, binaryRate: 0 });
}

/** The set of seed `seed` as a simulated-web profile (its size per site as drawn; `--scale` shrinks them). */
export function generatedProfile(seed: number): Profile {
  const set = drawSiteSet(seed);
  const sites: ProfileSite[] = set.sites.map((s) => ({
    host: `www.${s.short}-sim.org`,
    name: `generated set ${seed}, site ${s.short} (${s.external.shape}/${s.rdf.shape}, ${s.size} pages)`,
    shortName: s.short,
    size: s.size,
    build: (b, rng, n) => buildGeneratedSite(b, rng, s, n),
  }));
  return { name: `generated-${seed}`, description: `generated site set ${seed}: ${set.sites.length} PLDs`, sites };
}
