// **processDocument** turns one analysed fetch into a plan: what to store, what to enqueue, what to learn. No I/O.
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { ErrorCode } from '../errors.ts';
import type { FetchResult } from '../fetch/types.ts';
import { isInScope } from '../frontier/scope.ts';
import type { FrontierEntry, NewEntry, QueuedLink } from '../frontier/types.ts';
import { pldOf } from '../links/normalize-url.ts';
import type { BadLink, LinkFeatures } from '../links/types.ts';
import type { Strategy } from '../relevance/types.ts';
import type { DocumentAnalysis } from './analyse-document.ts';
import { originProbes } from './discovery.ts';

/** What `processDocument` needs besides the fetch: the crawl's settings and learned state, and facts read before. */
export interface DocumentContext {
  strategy: Strategy;
  options: { maxDepth: number; stayOnSite: boolean; probeWellKnown: boolean; linkTables: boolean };
  /** PLDs of the seeds (thesis §11 scope). */
  seedPlds: ReadonlySet<string>;
  /** Whether queued H links are kept for re-judging (thesis §5). */
  rejudge: boolean;
  /** Sitemaps robots.txt names for the entry's origin (for seeds). */
  robotsSitemaps: readonly string[];
  /** Whether the final URL's graph is stored already (or being stored): its quads are then not stored again. */
  storedAlready: boolean;
  /** Fetch sequence number of this record. */
  seq: number;
  /** Wall time of the fetch and processing (ms), and when it completed (ISO). */
  ms: number;
  fetchedAt: string;
}

/** The plan of one fetch: everything a committer writes in one transaction, and what the crawl learns from it. */
export interface DocumentPlan {
  entry: FrontierEntry;
  /** The record; `triples` and `linksQueued` are filled in by the committer from what the stores took. */
  record: CrawlRecord;
  /** The document's quads (graph = final URL), its partial output when it failed to parse, or nothing. */
  store: { kind: 'document'; quads: DocumentAnalysis['quads'] } | { kind: 'partial'; error: { code: ErrorCode; message: string }; quads: DocumentAnalysis['partial'] } | null;
  /** VoID dumps and SPARQL endpoints the document announces. */
  voidPoints: DocumentAnalysis['voidPoints'];
  /** Links to queue (judged, in scope) and the H links among them to remember for re-judging. */
  enqueue: NewEntry[];
  remember: QueuedLink[];
  /** Links to other PLDs (BeeBot's reward X(i, j)). */
  external: number;
  bad: BadLink[];
  redirects: FetchResult['redirects'];
  /** URLs done with this one (its final URL and redirect targets). */
  aliases: string[];
  /** BeeBot's link tables (BeeBot §2): the page and its links, for HTML pages when `linkTables` is on. */
  linkTables: { page: { url: string; site: string; level: number }; links: readonly LinkFeatures[] } | null;
}

/**
 * Plans one fetch (thesis §6: links judged by the strategy, inside the crawl's scope, thesis §11). The strategy
 * may observe the page's text (`observePage`) before it judges the links; nothing else changes.
 */
export function processDocument(entry: FrontierEntry, result: FetchResult, doc: DocumentAnalysis, ctx: DocumentContext): DocumentPlan {
  let store: DocumentPlan['store'] = null;
  let note: string | null = null;
  if (doc.quads.length === 0) {
    if (doc.partial.length > 0 && doc.error !== null) store = { kind: 'partial', error: { code: doc.error, message: doc.errorMessage ?? '' }, quads: doc.partial };
  } else if (ctx.storedAlready) {
    note = `duplicate: ${result.finalUrl} is already stored`;
  } else {
    store = { kind: 'document', quads: doc.quads };
  }
  const { enqueue, remember, external } = judgeLinks(entry, result, doc, ctx);
  const record: CrawlRecord = {
    seq: ctx.seq,
    url: entry.url,
    finalUrl: result.finalUrl,
    status: result.status,
    outcome: result.kind,
    contentType: doc.contentType,
    detectedType: doc.detectedType,
    rdfFormat: doc.rdfFormat,
    parent: entry.parent,
    depth: entry.depth,
    pld: entry.pld,
    triples: 0,
    linksQueued: 0,
    error: doc.error,
    errorMessage: note ?? doc.errorMessage,
    label: entry.label,
    rules: entry.rules,
    redirects: result.redirects,
    ms: ctx.ms,
    fetchedAt: ctx.fetchedAt,
  };
  return {
    entry,
    record,
    store,
    voidPoints: doc.voidPoints,
    enqueue,
    remember,
    external,
    bad: doc.bad,
    redirects: result.redirects,
    aliases: [result.finalUrl, ...result.redirects.map((h) => h.to)].filter((u) => u !== entry.url),
    linkTables: ctx.options.linkTables && doc.detectedType === 'html' ? { page: { url: result.finalUrl, site: entry.pld, level: entry.depth }, links: doc.links } : null,
  };
}

/**
 * The links to queue (thesis §6: judged by the strategy, inside the crawl's scope, thesis §11), plus sitemap files
 * queued as they are; and the count of links to other PLDs (BeeBot's reward).
 */
function judgeLinks(entry: FrontierEntry, result: FetchResult, doc: DocumentAnalysis, ctx: DocumentContext): Pick<DocumentPlan, 'enqueue' | 'remember' | 'external'> {
  const { strategy, options, seedPlds } = ctx;
  const depth = entry.depth + 1;
  const enqueue: NewEntry[] = [];
  const remember: QueuedLink[] = [];
  // Sitemaps of a seed's origin (named by robots.txt, or probed), and sitemap files listed by a sitemap index.
  const direct = [...doc.sitemaps];
  if (entry.parent === null && entry.link === null) direct.push(...originProbes(entry.url, ctx.robotsSitemaps, options.probeWellKnown));
  for (const link of direct) {
    if (!isInScope({ url: link.url, parentPld: entry.pld }, seedPlds)) continue;
    enqueue.push({ url: link.url, parent: result.finalUrl, depth, priority: strategy.seedPriority + 0.5, label: null, rules: [link.rel], link });
  }
  let external = 0;
  const inScope: LinkFeatures[] = [];
  for (const link of doc.links) {
    const offSite = pldOf(link.url) !== entry.pld;
    if (offSite) external += 1;
    if (depth > options.maxDepth) continue;
    if (offSite && options.stayOnSite) continue; // BeeBot: external links are recorded, not crawled
    if (isInScope({ url: link.url, parentPld: entry.pld }, seedPlds)) inScope.push(link);
  }
  if (strategy.observePage && doc.detectedType !== null && depth <= options.maxDepth) {
    strategy.observePage({ url: result.finalUrl, depth: entry.depth, type: doc.detectedType, text: doc.text, links: inScope });
  }
  const source = { url: result.finalUrl, depth: entry.depth, type: doc.linkSource };
  for (const link of inScope) {
    const j = strategy.judge(link, source);
    if (j.priority === null) continue;
    enqueue.push({ url: link.url, parent: result.finalUrl, depth, priority: j.priority, label: j.label, rules: j.rules, link });
    if (j.label === 'H' && ctx.rejudge) remember.push({ url: link.url, link, parent: result.finalUrl, depth, priority: j.priority, source });
  }
  return { enqueue, remember, external };
}
