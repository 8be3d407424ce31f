// **Crawl summary as text**: the figures of a finished run and what ended it, in one line for people.
import type { FailingOrigin } from '../fetch/origin-health.ts';
import type { ResolvedCrawlOptions } from '../crawl/options.ts';
import type { SinkOutcome } from '../crawl/sink-sender.ts';
import type { CrawlSummary } from '../crawl-log/tally.ts';

/** Why the crawl stopped, in words that name the flag to change. */
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
    `${s.embeddedDocuments} HTML pages with embedded RDF, ${s.triples} triples, ${s.errors} errors.` +
    (s.statementsDropped > 0 ? ` ${s.statementsDropped} statements dropped in ${s.documentsWithDrops} documents (\`rdfscout docs\` says which; --strict-rdf keeps none of such a document).` : '') +
    (s.contexts && s.contexts.fetched + s.contexts.failed > 0 ? ` JSON-LD contexts fetched ${s.contexts.fetched}, failed ${s.contexts.failed}.` : '') +
    formatLinksCut(s) +
    formatDeadOrigins(s.deadOrigins ?? [])
  );
}

/** The sentence counting links past `--max-links-per-doc` (thesis §11) that were not followed ('' when none). */
function formatLinksCut(f: Pick<CrawlSummary, 'linksBeyondCap' | 'documentsWithLinksCut'>): string {
  if (f.linksBeyondCap <= 0) return '';
  const docs = f.documentsWithLinksCut;
  return ` ${f.linksBeyondCap} link${f.linksBeyondCap === 1 ? '' : 's'} beyond --max-links-per-doc on ${docs} document${docs === 1 ? '' : 's'} not followed (\`rdfscout docs\` says which: linksBeyondCap).`;
}

/** Dead origins named at most; the rest are counted (`--json` lists every one). */
const DEAD_SHOWN = 5;

/** The sentence naming the origins that gave no answer when the run ended ('' when none). */
function formatDeadOrigins(dead: readonly FailingOrigin[]): string {
  if (dead.length === 0) return '';
  const named = dead.slice(0, DEAD_SHOWN).map((d) => `${d.origin} (${d.failures} failure${d.failures === 1 ? '' : 's'}${d.answeredBefore ? ', answered earlier' : ''}: ${d.reason.slice(0, 120)})`);
  const more = dead.length > DEAD_SHOWN ? `, and ${dead.length - DEAD_SHOWN} more (--json lists them all)` : '';
  return ` ${dead.length} origin${dead.length === 1 ? '' : 's'} gave no answer (their URLs are recorded as failed; --retry-failed on a resume tries them again): ${named.join('; ')}${more}.`;
}

/** Refused documents listed one per line at most; the rest are counted (`--json` lists every one). */
const REFUSALS_SHOWN = 10;

/** What `--sink` did in this run: sent, still pending (sent on resume), and every refusal with the store's answer. */
export function formatSinkOutcome(o: SinkOutcome): string {
  const lines = [`Sink ${o.endpoint}: ${o.sent} documents sent (${o.triples} triples).`];
  if (o.pending > 0) {
    const why = o.unreachable === null ? '' : ` (the sink is unreachable: ${o.unreachable})`;
    lines.push(`  ${o.pending} documents not acknowledged${why}; they are kept and sent again when the crawl is resumed with --sink.`);
  }
  if (o.refused.length > 0) {
    lines.push(`  ${o.refused.length} documents refused by the sink (sent again on resume):`);
    for (const r of o.refused.slice(0, REFUSALS_SHOWN)) lines.push(`    ${r.graph}  ${r.reason}`);
    if (o.refused.length > REFUSALS_SHOWN) lines.push(`    … and ${o.refused.length - REFUSALS_SHOWN} more (--json lists them all)`);
  }
  return lines.join('\n');
}
