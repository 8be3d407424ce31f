// **BeeBot mode** as hooks of the crawl steps (BeeBot §2): link tables staged with each page, Not Available sites.
import type { BanditPolicy } from '../bandit/types.ts';
import { markNotAvailable, stageLinkTables } from '../beebot/index.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { pldOf } from '../links/normalize-url.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { CommitHook } from './commit-plan.ts';
import type { DocumentPlan } from './process-document.ts';

/**
 * BeeBot §2: a site whose start page (a seed: no parent) could not be fetched is Not Available. Decided from the
 * record alone, so that a resume rebuilds the set by replaying the records.
 */
export function isNotAvailable(options: { stayOnSite: boolean }, record: CrawlRecord): boolean {
  return options.stayOnSite && record.parent === null && record.outcome !== 'ok' && record.outcome !== 'skipped';
}

/** Stages BeeBot's Internal and External Links tables of every HTML page (plans carry them when `--link-tables`). */
export function linkTablesHook(state: CrawlState): CommitHook {
  return {
    stage(plan: DocumentPlan, txn) {
      if (plan.linkTables === null) return;
      const { page, links } = plan.linkTables;
      stageLinkTables(state, txn, page, links, (u) => pldOf(u) === plan.entry.pld, plan.notQueued);
    },
  };
}

/**
 * After a committed fetch in BeeBot mode: a Not Available site leaves the game — the scheduler stops serving it,
 * the bandit retires it and the site list marks it. Returns whether the bandit retired it.
 */
export async function retireIfNotAvailable(
  state: CrawlState,
  options: { stayOnSite: boolean },
  record: CrawlRecord,
  exclude: (pld: string) => void,
  policy: BanditPolicy | null,
): Promise<boolean> {
  if (!isNotAvailable(options, record)) return false;
  exclude(record.pld);
  policy?.retire(record.pld);
  await markNotAvailable(state, record.pld);
  return policy !== null;
}
