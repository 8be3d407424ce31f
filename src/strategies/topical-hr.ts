// **topical+hr**: the thesis's FC-R+HR priority with ties broken by the topical agent's estimate (thesis §6, topical §3).
import type { LinkFeatures } from '../links/types.ts';
import { ParentSet } from '../relevance/relevancy-hr.ts';
import type { FetchedDocument, Judgement, LinkSource } from '../relevance/types.ts';
import { judgeBestFirst } from './best-first.ts';
import { checkSnapshot } from './common.ts';
import { type TopicalSnapshot, TopicalStrategy, type TopicalStrategyOptions } from './topical.ts';
import { TopicalAgent } from '../topical/topical-agent.ts';

/** Width of the tie-break band: priority = thesis priority + `TOPICAL_HR_TIE_SPAN · (1 − S)` (R ∈ [1, 1.45], HR ∈ [2, 2.45], H ∈ [3, 3.45]). */
export const TOPICAL_HR_TIE_SPAN = 0.45;

/** Snapshot of `topical+hr`: the agent's state and the learned RDF parents C_HR(t). */
export interface TopicalHrSnapshot extends TopicalSnapshot {
  parents: string[];
}

/**
 * `topical+hr` (hybrid): labels and base priorities exactly as FC-R+HR (NF, Relevancy_R, Relevancy_HR over C_HR(t);
 * R → 1, R inside RDF through another predicate → 1.5, HR → 2, H → 3, N dropped), plus `0.45 · (1 − S)` with S the
 * agent's link estimate, so within a label the links the agent likes come first and no label band overlaps another.
 * Learns C_HR(t) as FC-R+HR does and feeds the agent as `topical` does.
 */
export class TopicalHrStrategy extends TopicalStrategy {
  override readonly name = 'topical+hr';
  readonly rejudgesOnLearn = true;
  #parents = new ParentSet();

  constructor(options?: TopicalStrategyOptions) {
    super(options);
  }

  /** The learned C_HR(t) (read-only use). */
  get parents(): ParentSet {
    return this.#parents;
  }

  override judge(link: LinkFeatures, source: LinkSource): Judgement {
    const j = judgeBestFirst(link, source, this.concepts, (parts) => this.#parents.similarityRules(parts));
    if (j.priority === null) return j;
    return { ...j, priority: j.priority + TOPICAL_HR_TIE_SPAN * (1 - this.agent.linkScore(link, source.url)) };
  }

  override learn(doc: FetchedDocument): void {
    if (doc.type === 'rdf' && doc.parent !== null) this.#parents.add(doc.parent);
    super.learn(doc);
  }

  override snapshot(): TopicalHrSnapshot {
    return { strategy: this.name, version: 1, agent: this.agent.toJSON(), parents: this.#parents.toJSON() };
  }

  override restore(state: unknown): void {
    const s = checkSnapshot<TopicalHrSnapshot>(this.name, state);
    this.agent = TopicalAgent.fromJSON(s?.agent ?? null, this.agent.options);
    this.#parents = ParentSet.fromJSON(s?.parents ?? []);
  }
}
