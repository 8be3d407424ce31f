// **Crawl summary as text**: the figures of a finished run and what ended it, in one line for people.
import type { ResolvedCrawlOptions } from '../crawl/options.ts';
import type { CrawlSummary } from '../crawl-log/tally.ts';

/** Why the crawl stopped, in words that name the flag to change (issue 14 item 7). */
export function describeStop(s: Pick<CrawlSummary, 'stoppedBy'>, o: Pick<ResolvedCrawlOptions, 'maxDocs' | 'maxDocsPerPld' | 'maxDepth' | 'maxOfflineMs'>): string {
  switch (s.stoppedBy) {
    case 'max-docs':
      return `stopped: the total budget --max-docs ${o.maxDocs} is spent`;
    case 'max-docs-per-pld':
      return `stopped: every PLD with links left spent its budget --max-docs-per-pld ${o.maxDocsPerPld}`;
    case 'max-depth':
      return `stopped: no links left within --max-depth ${o.maxDepth} (deeper links were not queued)`;
    case 'signal':
      return 'stopped: interrupted by a signal (run the same command to resume)';
    case 'stopped':
      return 'stopped: stopped from the dashboard (run the same command to resume)';
    case 'offline':
      return `stopped: every request failed at the connection level for longer than --max-offline-ms ${o.maxOfflineMs} (what failed is still queued: run the same command to resume)`;
    default:
      return 'stopped: no links left to fetch';
  }
}

/** The one-line summary the crawl command prints (the figures are defined in crawl-log/figures.ts). */
export function formatSummary(s: CrawlSummary, o: Pick<ResolvedCrawlOptions, 'maxDocs' | 'maxDocsPerPld' | 'maxDepth' | 'maxOfflineMs'>): string {
  const denied = s.denied > 0 ? ` (and ${s.denied} refused by robots.txt, not fetched)` : '';
  return (
    `${s.resumed ? 'Resumed crawl' : 'Crawl'} ${describeStop(s, o)}. ` +
    `${s.fetched} fetched${denied}, ${s.rdfDocuments} RDF documents (harvest rate ${(s.harvestRate * 100).toFixed(1)}%), ` +
    `${s.embeddedDocuments} HTML pages with embedded RDF, ${s.triples} triples, ${s.errors} errors.`
  );
}
