// **AutoPolicy**: Thompson sampling that reads the shape of the rewards to choose how long to remember — one rule for RAS-like, university-like and mixed site sets (ours, spec §5).

import { type ArmRecord, argmax, effortOf } from '../policy-base.ts';
import { ThompsonPolicy } from './thompson.ts';

/** Pulls a barren arm may get besides the one dug deep, before it must pay to be pulled again (R2's batch n). */
export const SECOND_LOOK = 10;

/**
 * Of the awake barren arms (past their initial pulls, nothing paid yet), the ones that may take part in a choice
 * while AutoPolicy digs: the most pulled (ties: the earliest discovered), and the least pulled (ties: the earliest
 * discovered) while it has had fewer than `look` pulls. Pure.
 *
 * Why (ours): barren arms share one posterior but for their pull counts, so independent Thompson
 * draws spread pulls thinly over all of them. Under politeness (host concurrency 1, several fetches in flight) the
 * best sites are served at most one fetch at a time, and the other slots go to lesser sites: on sites crawled
 * breadth-first whose links start late (deep pages), thin spreading reaches no site's start, and digging one site
 * deep does (as R2's ties, by discovery order, do). The least pulled arm keeps a second look, so that a site whose
 * first pages happen to be barren (a university-like site among RAS-like ones) is not starved.
 */
export function barrenContenders(barren: readonly ArmRecord[], look: number): ArmRecord[] {
  const deepest = argmax(barren, effortOf);
  if (deepest === undefined) return [];
  const freshest = argmax(barren, (r) => -effortOf(r))!;
  return freshest !== deepest && effortOf(freshest) < look ? [deepest, freshest] : [deepest];
}

/** ρ: the share of R1's N/K that every arm gets before sampling may pass it by (see `spreadOwed`). */
export const SPREAD_SHARE = 0.1;

/**
 * The arm owed a pull of the spread (BeeBot §3 R1's first phase, at a fraction of its share): once every awake
 * arm has had its `initialStep` pulls, the least pulled awake arm (ties: the earliest discovered) with fewer than
 * `share` committed pulls; undefined when there is none. Pure.
 *
 * Why (ours): a site crawled in its own order may pay nothing for its first tens of pages (listings before the
 * data, BeeBot §4's university sites whose links start deep) and then pay on almost every page. Sampling judges
 * it by those first pages and, with one arm paying steadily, never comes back (on the thesis-like web, 2,000
 * fetches over four PLDs: `auto` gave the dbtune-like site 16 fetches, where its RDF starts at the 38th; 649
 * RDF documents, round-robin 1,076). A tenth of the round-robin share is cheap where the budget per site is
 * small (600 fetches over 5–60 sites: 1–12 pulls, mostly fewer than the initial step) and reaches that deep
 * where it is large (50 pulls a site there).
 */
export function spreadOwed(awake: readonly ArmRecord[], initialStep: number, share: number): ArmRecord | undefined {
  if (awake.some((r) => effortOf(r) < initialStep)) return undefined;
  const owed = awake.filter((r) => effortOf(r) < share);
  return owed.length > 0 ? argmax(owed, (r) => -effortOf(r)) : undefined;
}

/** κ: the share of the best arm's mean that every arm's prior mean is raised to (see `AutoPolicy.prior`). */
export const OPTIMISM = 0.5;

/** w: pulls' worth of the pooled mean that each arm's mean is shrunk toward in `bestArmMean`. */
export const BEST_ARM_SHRINK = 20;

/**
 * The best arm's mean reward per pull, each arm's mean shrunk toward the pooled mean μ0 by `BEST_ARM_SHRINK`
 * pulls' worth of it, (w·μ0 + S_i)/(w + t_i), over the arms (retired ones too) with at least `minPulls` pulls;
 * 0 when there is none. Pure.
 *
 * Why shrunk: the largest of many raw means over three pages is mostly luck (one site in fifty pays twice in its
 * first three pages); shrunk, a site must keep paying over tens of pages to set the bar.
 */
export function bestArmMean(arms: Iterable<ArmRecord>, mu0: number, minPulls: number): number {
  let best = 0;
  for (const r of arms) {
    if (r.pulls >= minPulls) best = Math.max(best, (BEST_ARM_SHRINK * mu0 + r.totalReward) / (BEST_ARM_SHRINK + r.pulls));
  }
  return best;
}

/** Dispersion (variance / mean of all rewards) above which the rewards count as heavy-tailed (hub pages). */
export const HEAVY_TAIL_DISPERSION = 5;

/**
 * `auto`: quasi-Poisson Thompson sampling (as `thompson`) whose memory adapts to the site set (BeeBot §4–5).
 *
 * The article's finding is that the best rule depends on the set: on RAS-like sets (most pages without external
 * links, a few hubs with very many) a rule that sticks to the sites that paid (R2) wins; on university-like sets
 * (one to three links on many pages, fading with depth) a rule that keeps exploring (R3, UCB) wins. In
 * `bench/bandit-replay.ts` the same holds inside Thompson sampling: undiscounted evidence (γ = 1) is the best
 * Thompson on RAS-like sets and the worst on university-like ones, and a short memory (γ = 0.99) the reverse.
 *
 * So `auto` keeps both the plain and the discounted sums of every arm and samples from the plain posterior when
 * (a) the pooled dispersion φ = s²/x̄ of all rewards exceeds `HEAVY_TAIL_DISPERSION` (hub pages: RAS-like, or a mix
 * containing them), or (b) the plain per-arm means have predicted each next reward at least as well as the
 * discounted ones so far (squared error, summed over all pulls): the yields are stationary, as on the simulated
 * web's sites, where forgetting only costs re-exploration. Otherwise (light tails and yields that drift, e.g.
 * fading with depth) it samples from the discounted posterior. The posterior is that of `thompson`:
 * λ_i ~ Gamma((p0·μ0 + S_i)/φ, (p0 + t_i)/φ), μ0 the smoothed pooled mean.
 *
 * The discount runs on each arm's own pulls (`forgetting = 'depth'`, γ = 0.95: about the last 20 pages of the
 * site), not on the crawl's clock: a site's yield changes as the crawl goes deeper into it, not while it is left
 * alone. With the crawl's clock (γ = 0.99 per fetch), every site left alone for a few hundred fetches regained
 * the prior's width and was sampled again, so poor sites got 15–25 fetches each where R2 gives them 10 (live
 * crawls of the tuning sets of `bench:bandit -- --generated --split tuning`, 600 fetches, 20 sets; `auto` ÷ the
 * best fixed rule in total, before → after: external links 1.147 → 1.299 one fetch at a time, 1.139 → 1.283 at
 * concurrency 4; RDF documents 1.167 → 1.219 and 1.166 → 1.255).
 *
 * Before sampling may pass an arm by, it gets a tenth of R1's share (`spreadOwed`, `SPREAD_SHARE`).
 *
 * The prior's mean is at least `OPTIMISM` (½) of the best arm's shrunk mean (`bestArmMean`, retired arms too): an
 * arm is judged against the best site seen, as R3 scales every mean by X_max (BeeBot §3 R3), not against the
 * average page. Why: where rewards are few, the pooled mean μ0 is small, and so is the posterior of a site that
 * has paid nothing in its first 20 pages (mean μ0/21); sampling then stays on a site paying one link in ten pages
 * and never reaches a site whose data starts at its 22nd page. On generated set 9 (19 sites, 600 fetches, one at a
 * time), R1 found 191 external links, R3 188 and `auto` 99: the site paying 2 links a page from its 21st page had
 * 20 fetches. R3 reaches it because its exploration term, sqrt(2 ln n / t), outweighs means far below X_max: it
 * crawls such sets nearly round-robin. With the prior at half the best site's mean, a barren site keeps a chance
 * while the sites that pay, pay little beside the best seen. Live crawls of tuning sets, one fetch at a time,
 * `auto` ÷ the best fixed rule, before → after: external links (sets 1–40) 28 → 33 sets ≥ 0.98, 32 → 37 ≥ 0.90,
 * 1.374 → 1.466 in total, set 9 99 → 274; RDF documents (sets 1–38) 30 → 32 ≥ 0.98, 34 → 33 ≥ 0.90, minimum
 * 0.223 → 0.478, 1.247 → 1.310 in total. On BeeBot's sets (`bench/bandit-replay.ts`, 20 seeds) unchanged within
 * 1%. In the replay of tuning sets 1–60 (`bench/bandit-generated-replay.ts`, external links), κ = 1 explores too
 * much where one site pays steadily (R2's sets): 1.26 of the best fixed rule in total, κ = ½ 1.39. At concurrency 4
 * (tuning sets, live) external links went 35 → 40 of 44 sets ≥ 0.98; RDF documents 15 → 12 of 20, within the
 * noise of live crawls at concurrency 4 (the same policy without the optimism while fetches are in flight gave 13,
 * below both: at concurrency 4 one live run per set moves a handful of sets across 0.98).
 *
 * Every arm first gets `initialStep` pulls (`createPolicy` default: 3, `AUTO_INITIAL_STEP`), as BeeBot §3's R2
 * (n) and R3 (m) do. Why more than one: on a heavy-tailed set, the first hub found makes φ large, and the
 * posterior of an arm that has paid nothing yet has shape p0·μ0/φ ≪ 1, so it almost never draws high again:
 * such an arm is out of the game, as an arm whose first n pages paid nothing is for R2. With one initial pull,
 * the only page seen of most sites is the start page (navigation, rarely a hub), so the crawl settles on the
 * first site where a hub happens to turn up, and stays there until that site's mean sinks below the pooled
 * mean (in `bench/bandit.ts --replay`, seed 2: 1541 of 2000 pages on a site whose one hub was its 49th page;
 * round-robin found 112 links there, auto 38). Three pages per site (the start page and two level-1 pages)
 * give every site a look before that happens. In the replay (40 generator seeds, paired): +7 ± 10 links on
 * RAS-like sets (88 → 96; r2 94), −1 ± 3 on university-like, 0 ± 3 on the mix. Stronger priors (p0 = 10–300,
 * or a hurdle model: Beta frequency × pooled severity) did worse on all three sets: on these sets, sticking to
 * a site that paid is right more often than not.
 *
 * Under concurrency (`digs`: fetches in flight, no site run out yet), of the barren arms (nothing paid yet, past
 * their initial pulls) only the most pulled and a least pulled one still on its second look take part in a choice
 * (`barrenContenders`), so that the draws dig one site deep rather than spread thinly over every barren site. One
 * fetch at a time, nothing changes. Politeness needs no other care: `choose` sees only the PLDs that may be fetched
 * now, and pulls in flight count in `effortOf`. In the replay under politeness (`bench:bandit -- --drift`,
 * concurrency 4, host concurrency 1; tuning seeds 1–10), against sampling over every barren arm: late-start sites
 * 616 → 673 external links (R2 671), RAS-like 83 → 99 (R2 99), the other kinds within ±1%; but the 5+5 mix of
 * RAS-like and university-like sites (seeds 1–20) 292 → 225 (R2 222).
 */
export class AutoPolicy extends ThompsonPolicy {
  override readonly name: string = 'auto';
  /** Squared errors of the plain and the discounted per-arm means as predictors of each next reward. */
  #errPlain = 0;
  #errDisc = 0;

  readonly #initialStep: number;
  readonly #budget: number;

  /**
   * @param seed the generator's seed.
   * @param priorPulls p0, the prior's weight in pulls.
   * @param initialStep pulls every arm gets before sampling starts (`createPolicy` passes 3 unless told otherwise).
   * @param gamma discount per pull of the same arm (depth), used while the rewards are not heavy-tailed, in (0, 1].
   *   `createPolicy` passes 0.95 unless told otherwise.
   * @param budget N, the crawl's total pulls: every arm gets at least `SPREAD_SHARE`·N/K of them (`spreadOwed`);
   *   0, no spread. `createPolicy` passes its `budget` (the crawl: `--max-docs`).
   */
  constructor(seed: number, priorPulls: number, initialStep: number, gamma = 0.95, budget = 0) {
    super(seed, priorPulls, initialStep, gamma, 'depth');
    this.#initialStep = initialStep;
    this.#budget = budget;
  }

  /**
   * Thompson sampling over the awake arms; while `digs` holds, of the barren arms only the contenders of
   * `barrenContenders` take part.
   */
  protected override pick(awake: readonly ArmRecord[]): ArmRecord {
    const owed = spreadOwed(awake, this.#initialStep, (SPREAD_SHARE * this.#budget) / Math.max(1, this.arms.size));
    if (owed !== undefined) return owed;
    if (!this.digs) return super.pick(awake);
    const barren = awake.filter((r) => r.totalReward === 0 && effortOf(r) >= this.#initialStep);
    if (barren.length <= 1) return super.pick(awake);
    const keep = barrenContenders(barren, SECOND_LOOK);
    return super.pick(awake.filter((r) => !barren.includes(r) || keep.includes(r)));
  }

  /**
   * Whether barren arms are dug: while fetches run concurrently (a pull is in flight as this one is chosen: with
   * host concurrency 1 the best sites are being served, and this pull is a detour that is best spent deep on one
   * site) and no arm has yet run out of pages (a sign of small sites, where a barren one is likelier a poor one).
   * Derived from the arm records alone, so a restored policy decides as the saved one would.
   */
  get digs(): boolean {
    let inFlight = false;
    for (const r of this.arms.values()) {
      if (!r.active && r.pulls > this.#initialStep) return false;
      if (r.chosen > r.pulls) inFlight = true;
    }
    return inFlight;
  }

  /** Whether the rewards so far look heavy-tailed (then evidence is not discounted). */
  get heavyTailed(): boolean {
    return super.prior().phi > HEAVY_TAIL_DISPERSION;
  }

  /** Whether the next choice uses plain (undiscounted) evidence. */
  get remembersAll(): boolean {
    return this.usesPlainEvidence();
  }

  /**
   * The prior of every arm: the pooled prior of `thompson`, its mean raised to `OPTIMISM` times the best arm's
   * mean (`bestArmMean`), so that an arm is judged against the best site seen, not the average page.
   */
  protected override prior(): { mu0: number; phi: number } {
    const base = super.prior();
    return { mu0: Math.max(base.mu0, OPTIMISM * bestArmMean(this.arms.values(), base.mu0, this.#initialStep)), phi: base.phi };
  }

  protected override usesPlainEvidence(): boolean {
    // Only φ is needed: the pooled prior's (`super.prior()`), not the raised mean's O(K) `bestArmMean`.
    return super.prior().phi > HEAVY_TAIL_DISPERSION || this.#errPlain <= this.#errDisc;
  }

  protected override observe(rec: ArmRecord, reward: number): void {
    // Score both memories on this reward before learning from it (the arm's earlier evidence only).
    const before = { n: rec.pulls - 1, s: rec.totalReward - reward };
    if (before.n >= 1) {
      const disc = this.evidence(rec, false);
      if (disc.n > 0) {
        this.#errPlain += (reward - before.s / before.n) ** 2;
        this.#errDisc += (reward - disc.s / disc.n) ** 2;
      }
    }
    super.observe(rec, reward);
  }

  protected override saveOwn(): Record<string, unknown> {
    return { ...super.saveOwn(), errPlain: this.#errPlain, errDisc: this.#errDisc };
  }

  protected override loadOwn(own: unknown): void {
    super.loadOwn(own);
    const s = own as { errPlain: number; errDisc: number };
    this.#errPlain = s.errPlain;
    this.#errDisc = s.errDisc;
  }
}
