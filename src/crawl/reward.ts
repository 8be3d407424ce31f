// **rewardOf** turns one fetched document into the bandit's reward (BeeBot §3 X(i, j), or RDF found per fetch).
import type { CrawlRecord } from '../crawl-log/record.ts';
import { isRdfRecord } from '../crawl-log/tally.ts';

export type RewardKind = 'rdf-docs' | 'triples' | 'external-links';

/** Reward of one fetch: 1 per RDF document, its triple count, or its external-link count (BeeBot §1). */
export function rewardOf(kind: RewardKind, record: CrawlRecord, externalLinks: number): number {
  switch (kind) {
    case 'rdf-docs':
      return isRdfRecord(record) ? 1 : 0;
    case 'triples':
      return record.triples;
    case 'external-links':
      return externalLinks;
  }
}
