// **ThompsonPolicy**: Thompson sampling for count rewards, Gamma–Poisson conjugate with an over-dispersion correction (ours, spec §5).

import { type ArmRecord, argmax, initialPull, PolicyBase } from '../policy-base.ts';
import { Prng } from '../../random/prng.ts';
import { sampleGamma } from '../../random/samplers.ts';

/** What old evidence fades with (see ThompsonPolicy). */
export type Forgetting = 'time' | 'depth';

/**
 * Thompson sampling for count rewards (links, RDF documents, triples per page).
 *
 * Model: an arm's rewards are Poisson(λ_i). Counts of links per page are far more dispersed than Poisson
 * (most pages 0, a few hundreds), so we use the quasi-Poisson posterior: the likelihood is tempered by the
 * dispersion φ = max(1, s² / x̄) of all rewards seen so far (pooled over arms), i.e. each reward counts as 1/φ
 * of an observation. With S_i the arm's total reward and t_i its pulls:
 *
 *   prior      λ_i ~ Gamma(shape = p0·μ0/φ, rate = p0/φ)            (mean μ0, worth p0 pulls)
 *   posterior  λ_i ~ Gamma(shape = (p0·μ0 + S_i)/φ, rate = (p0 + t_i)/φ)
 *
 * where μ0 = (ΣX + 1)/(n + 1) is the smoothed mean reward over all arms (empirical Bayes) and p0 = `priorPulls`
 * (default 1). The posterior mean is (p0·μ0 + S_i)/(p0 + t_i) and its variance is φ times the Poisson one.
 * With a discount γ < 1 (`createPolicy` default 0.995), S_i and t_i are discounted like `ducb`'s
 * (the reward of step u weighs γ^(T−u)), so a site whose yield fades loses its lead and a site left alone
 * regains posterior width. With `forgetting = 'depth'` (`auto`), the clock is the arm's own pulls instead: the reward
 * of the arm's u-th pull weighs γ^(t_i−u), so an arm left alone keeps its posterior as it was. Each choice draws one λ per awake arm and takes the largest. Every arm first gets `initialStep` pulls
 * (default 1), because a prior with a tiny shape rarely draws high enough to explore a new arm.
 *
 * Sleeping arms need no special care: draws are made for awake arms only.
 */
export class ThompsonPolicy extends PolicyBase {
  readonly name: string = 'thompson';
  readonly #prng: Prng;
  readonly #priorPulls: number;
  readonly #initialStep: number;
  readonly #gamma: number;
  readonly #forgetting: Forgetting;
  /** Discounted pulls and reward sum per arm, as of reward number `at` (only when γ < 1). */
  #disc = new Map<string, { n: number; s: number; at: number }>();

  /**
   * @param gamma discount of old evidence, as in `ducb`: the reward of step u weighs γ^(T−u). 1 (no discount)
   *   keeps the plain posterior.
   * @param forgetting what old evidence fades with: every pull of the crawl ('time'), or the arm's own pulls ('depth').
   */
  constructor(seed: number, priorPulls: number, initialStep: number, gamma = 1, forgetting: Forgetting = 'time') {
    super();
    this.#prng = new Prng(seed);
    this.#priorPulls = priorPulls;
    this.#initialStep = initialStep;
    this.#gamma = gamma;
    this.#forgetting = forgetting;
  }

  protected pick(awake: readonly ArmRecord[]): ArmRecord {
    const first = initialPull(awake, this.#initialStep);
    if (first !== undefined) return first;
    if (awake.length === 1) return awake[0]!;
    const { mu0, phi } = this.prior();
    const plain = this.usesPlainEvidence();
    const p0 = this.#priorPulls;
    return argmax(awake, (rec) => {
      const { n, s } = this.evidence(rec, plain);
      return sampleGamma(this.#prng, (p0 * mu0 + s) / phi, (p0 + n) / phi);
    })!;
  }

  /** Whether the next choice samples from the plain (undiscounted) posterior; subclasses decide otherwise. */
  protected usesPlainEvidence(): boolean {
    return this.#gamma === 1;
  }

  /** The posterior mean of λ_i, from the evidence the next choice would use. */
  protected override index(rec: ArmRecord): number {
    const { mu0 } = this.prior();
    const { n, s } = this.evidence(rec, this.usesPlainEvidence());
    return (this.#priorPulls * mu0 + s) / (this.#priorPulls + n);
  }

  protected override observe(rec: ArmRecord, reward: number): void {
    if (this.#gamma === 1) return;
    const d = this.#disc.get(rec.arm);
    const fade = d === undefined ? 0 : this.#forgetting === 'depth' ? this.#gamma : this.#gamma ** (this.totalPulls - d.at);
    this.#disc.set(rec.arm, { n: (d?.n ?? 0) * fade + 1, s: (d?.s ?? 0) * fade + reward, at: this.totalPulls });
  }

  /** The arm's pulls and reward sum: plain when `plain` (or γ = 1), else discounted. */
  protected evidence(rec: ArmRecord, plain: boolean): { n: number; s: number } {
    if (plain || this.#gamma === 1) return { n: rec.pulls, s: rec.totalReward };
    const d = this.#disc.get(rec.arm);
    if (d === undefined) return { n: 0, s: 0 };
    const fade = this.#forgetting === 'depth' ? 1 : this.#gamma ** (this.totalPulls - d.at);
    return { n: d.n * fade, s: d.s * fade };
  }

  /** The prior's mean μ0 (smoothed pooled mean) and the pooled dispersion φ. */
  protected prior(): { mu0: number; phi: number } {
    const mu0 = (this.totalReward + 1) / (this.totalPulls + 1);
    const mean = this.totalPulls > 0 ? this.totalReward / this.totalPulls : 0;
    const phi = mean > 0 ? Math.max(1, this.pooledVariance() / mean) : 1;
    return { mu0, phi };
  }

  protected override saveOwn(): Record<string, unknown> {
    return { prng: this.#prng.state };
  }

  protected override loadOwn(own: unknown): void {
    this.#prng.restore((own as { prng: number }).prng);
    this.#disc.clear(); // the arms' entries come with the arms (loadArm, called after this)
  }

  protected override saveArm(rec: ArmRecord): unknown {
    const d = this.#disc.get(rec.arm);
    return d === undefined ? undefined : { ...d };
  }

  protected override loadArm(rec: ArmRecord, own: unknown): void {
    this.#disc.set(rec.arm, own as { n: number; s: number; at: number });
  }
}
