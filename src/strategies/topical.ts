// **topical**: the topical-collection agent as a crawl strategy — priority from P(v) (topical §3).
import type { LinkFeatures } from '../links/types.ts';
import { TopicalAgent, type TopicalAgentJson, type TopicalAgentOptions } from '../topical/topical-agent.ts';
import type { ConceptSets } from '../relevance/concepts.ts';
import { deriveLinkFeatures } from '../relevance/link-features.ts';
import { judgeRdfDocumentLink, judgeRelevancyR } from '../relevance/relevancy-r.ts';
import type { FetchedDocument, Judgement, LinkSource, ObservedPage, Strategy } from '../relevance/types.ts';
import { NF_DROPPED, PRIORITY, type StrategyOptions, type StrategySnapshot, checkSnapshot, failsNf, resolveStrategyOptions } from './common.ts';

/** Options of the topical strategies: the common ones plus the agent's. */
export interface TopicalStrategyOptions extends StrategyOptions {
  /** The agent's PR/HITS schedule and filter sizes. Default: `TopicalAgent` defaults. */
  agent?: TopicalAgentOptions;
}

/** Span of `topical` priorities: a link with estimate S gets `1 + TOPICAL_SPAN · (1 − S)` ∈ [1, 3]; seeds get 0. */
const TOPICAL_SPAN = 2;

/** Snapshot of the topical strategies: the agent's state. */
export interface TopicalSnapshot extends StrategySnapshot {
  agent: TopicalAgentJson;
}

/** Splits the agent's options off before the common ones are checked (they reject unknown keys). */
function resolveTopicalOptions(options: TopicalStrategyOptions = {}): { concepts: ConceptSets; agent: TopicalAgentOptions } {
  const { agent, ...common } = options;
  return { concepts: resolveStrategyOptions(common).concepts, agent: agent ?? {} };
}

/**
 * `topical`: NF drops known non-semantic extensions and, as the agent keeps only links to documents it can use
 * (topical §3 step 4: HTML; ours: and RDF), Relevancy_R's `N` is dropped too; the label is recorded for the
 * metrics but does not order the queue. Priority `1 + 2 · (1 − S)` ∈ [1, 3] with S the agent's link estimate
 * (`TopicalAgent.linkScore`: the parent's P(v) and the target's metrics), never colliding with seeds (0).
 * Politeness ("skip URLs on recently visited sites", topical §3 step 3) is the crawl engine's per-host politeness
 * and the frontier's per-PLD scheduling, not this strategy's business.
 * Learning: `observePage` feeds the agent every page; `learn` the fetch outcome (RDF → it and its parent are
 * relevant). The whole agent state is in `snapshot()`.
 */
export class TopicalStrategy implements Strategy {
  readonly name: string = 'topical';
  readonly seedPriority = PRIORITY.seed;
  protected readonly concepts: ConceptSets;
  protected agent: TopicalAgent;
  readonly #agentOptions: TopicalAgentOptions;

  constructor(options?: TopicalStrategyOptions) {
    const o = resolveTopicalOptions(options);
    this.concepts = o.concepts;
    this.#agentOptions = o.agent;
    this.agent = new TopicalAgent(o.agent);
  }

  /** The agent (read-only use: metrics, tests). */
  get topicalAgent(): TopicalAgent {
    return this.agent;
  }

  judge(link: LinkFeatures, source: LinkSource): Judgement {
    if (failsNf(link, this.concepts)) return { ...NF_DROPPED, rules: [...NF_DROPPED.rules] };
    const f = deriveLinkFeatures(link);
    const verdict = source.type === 'rdf' ? judgeRdfDocumentLink(f, this.concepts) : judgeRelevancyR(f, this.concepts);
    if (verdict.label === 'N') return { label: 'N', rules: verdict.rules, priority: PRIORITY.N }; // last
    const s = this.agent.linkScore(link, source.url);
    return { label: verdict.label, rules: verdict.rules, priority: PRIORITY.R + TOPICAL_SPAN * (1 - s) };
  }


  observePage(page: ObservedPage): void {
    this.agent.observePage(page);
  }

  learn(doc: FetchedDocument): void {
    this.agent.learn(doc);
  }

  snapshot(): TopicalSnapshot {
    return { strategy: this.name, version: 1, agent: this.agent.toJSON() };
  }

  restore(state: unknown): void {
    const s = checkSnapshot<TopicalSnapshot>(this.name, state);
    this.agent = TopicalAgent.fromJSON(s?.agent ?? null, this.#agentOptions);
  }
}
