// **processDocument** turns one analysed fetch into a plan: what to store, what to enqueue, what to learn. No I/O.
import type { CrawlRecord } from '../crawl-log/record.ts';
import type { ErrorCode } from '../errors.ts';
import type { FetchResult } from '../fetch/types.ts';
import { hopsOf, judgeScope, type Scope } from '../frontier/scope.ts';
import type { FrontierEntry, NewEntry, QueuedLink } from '../frontier/types.ts';
import { htmlVariantLink, negotiatedResource } from '../links/html-variant.ts';
import { pldOf } from '../links/normalize-url.ts';
import type { BadLink, LinkFeatures } from '../links/types.ts';
import type { Strategy } from '../relevance/types.ts';
import type { DocumentAnalysis } from './analyse-document.ts';
import { originProbes } from './discovery.ts';

/** What `processDocument` needs besides the fetch: the crawl's settings and learned state, and facts read before. */
export interface DocumentContext {
  strategy: Strategy;
  options: { maxDepth: number; stayOnSite: boolean; probeWellKnown: boolean; linkTables: boolean };
  /** What the crawl may leave its seeds for (thesis §11). */
  scope: Scope;
  /** Whether queued H links are kept for re-judging (thesis §5). */
  rejudge: boolean;
  /** The frontier's `ignores` (a link `add` will leave as it is at that priority); absent: every link is judged. */
  ignores?: (url: string, priority: number) => boolean;
  /** Sitemaps robots.txt names for the entry's origin (for seeds). */
  robotsSitemaps: readonly string[];
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
  /** The document (graph = final URL, its quads in `document`), its partial output when it failed to parse, or nothing. */
  store: { kind: 'document' } | { kind: 'partial'; error: { code: ErrorCode; message: string }; quads: DocumentAnalysis['partial']; count: number } | null;
  /** The writer that received the document's quads as they were parsed: staged when `store` is a document, else discarded. */
  document: DocumentAnalysis['document'];
  /** VoID dumps and SPARQL endpoints the document announces. */
  voidPoints: DocumentAnalysis['voidPoints'];
  /** Links to queue (judged, in scope) and the H links among them to remember for re-judging. */
  enqueue: NewEntry[];
  remember: QueuedLink[];
  /** Links to other PLDs (BeeBot's reward X(i, j)). */
  external: number;
  /** Why each other link of the page was not queued (`depth`, `stay-on-site`, a scope refusal, `filtered`; `links` shows it). */
  notQueued: Map<string, string>;
  /** Links not queued because they were deeper than `--max-depth` (tells a depth-limited stop from an empty frontier). */
  depthDropped: number;
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
  if (doc.triples === 0) {
    if (doc.partialCount > 0 && doc.error !== null) {
      store = { kind: 'partial', error: { code: doc.error, message: doc.errorMessage ?? '' }, quads: doc.partial, count: doc.partialCount };
    }
  } else if (doc.storedAlready) {
    note = `duplicate: ${result.finalUrl} is already stored`;
  } else {
    store = { kind: 'document' };
  }
  const { enqueue, remember, external, notQueued, depthDropped } = judgeLinks(entry, result, doc, ctx);
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
  if (doc.linksBeyondCap > 0) record.linksBeyondCap = doc.linksBeyondCap;
  if (doc.recovery !== null) {
    record.recovery = { dropped: doc.recovery.dropped, repaired: doc.recovery.repaired, errors: doc.recovery.errors.map(({ message, line, source }) => ({ message, ...(line === undefined ? {} : { line }), ...(source === undefined ? {} : { source }) })) };
  }
  return {
    entry,
    record,
    store,
    document: doc.document,
    voidPoints: doc.voidPoints,
    enqueue,
    remember,
    external,
    notQueued,
    depthDropped,
    bad: doc.bad,
    redirects: result.redirects,
    aliases: [result.finalUrl, ...result.redirects.map((h) => h.to)].filter((u) => u !== entry.url),
    linkTables: ctx.options.linkTables && doc.detectedType === 'html' ? { page: { url: result.finalUrl, site: entry.pld, level: entry.depth }, links: doc.links } : null,
  };
}

/**
 * The links to queue (thesis §6: judged by the strategy, inside the crawl's scope), plus sitemap
 * files queued as they are; the count of links to other PLDs (BeeBot's reward); and why each other link was not
 * queued.
 */
function judgeLinks(
  entry: FrontierEntry,
  result: FetchResult,
  doc: DocumentAnalysis,
  ctx: DocumentContext,
): Pick<DocumentPlan, 'enqueue' | 'remember' | 'external' | 'notQueued' | 'depthDropped'> {
  const { strategy, options, scope } = ctx;
  const depth = entry.depth + 1;
  const enqueue: NewEntry[] = [];
  const remember: QueuedLink[] = [];
  const notQueued = new Map<string, string>();
  let depthDropped = 0;
  const parentHops = hopsOf(entry, scope.seedPlds);
  // Sitemaps of a seed's origin (named by robots.txt, or probed), and sitemap files listed by a sitemap index.
  const direct = [...doc.sitemaps];
  if (entry.parent === null && entry.link === null) direct.push(...originProbes(entry.url, ctx.robotsSitemaps, options.probeWellKnown));
  for (const link of direct) {
    const v = judgeScope(link.url, parentHops, scope);
    if (!v.ok) continue;
    enqueue.push({ url: link.url, parent: result.finalUrl, depth, priority: strategy.seedPriority + 0.5, label: null, rules: [link.rel], link, offsiteHops: v.hops });
  }
  let external = 0;
  const inScope: Array<{ link: LinkFeatures; hops: number }> = [];
  for (const link of doc.links) {
    const offSite = pldOf(link.url) !== entry.pld;
    if (offSite) external += 1;
    if (depth > options.maxDepth) {
      notQueued.set(link.url, 'depth');
      depthDropped += 1;
    } else if (offSite && options.stayOnSite) notQueued.set(link.url, 'stay-on-site'); // BeeBot: recorded, not crawled
    else {
      const v = judgeScope(link.url, parentHops, scope);
      if (v.ok) inScope.push({ link, hops: v.hops });
      else notQueued.set(link.url, v.reason);
    }
  }
  // The HTML variant of a resource that negotiated to RDF, for strategies that judge it.
  const negotiated = strategy.followsHtmlVariants && doc.detectedType === 'rdf' ? negotiatedResource(entry.url, result.redirects) : null;
  if (negotiated !== null && depth <= options.maxDepth) {
    const v = judgeScope(negotiated, parentHops, scope);
    if (v.ok) inScope.push({ link: htmlVariantLink(negotiated), hops: v.hops });
  }
  if (strategy.observePage && doc.detectedType !== null && depth <= options.maxDepth) {
    strategy.observePage({ url: result.finalUrl, depth: entry.depth, type: doc.detectedType, text: doc.text, links: inScope.map((l) => l.link) });
  }
  const source = { url: result.finalUrl, depth: entry.depth, type: doc.linkSource };
  // A link the frontier will ignore needs no label when the strategy's priority does not depend on it (bfs): the
  // entry is still planned, as `add` and the scheduler's `committed` see every planned link, but never stored. Not
  // with re-judging (it remembers H links by label) nor link tables (they show why a link was filtered).
  const ignores = strategy.priorityOf !== undefined && !ctx.rejudge && !options.linkTables ? ctx.ignores : undefined;
  for (const { link, hops } of inScope) {
    if (ignores !== undefined) {
      const priority = strategy.priorityOf?.(link, source) ?? null;
      if (priority !== null && ignores(link.url, priority)) {
        enqueue.push({ url: link.url, parent: result.finalUrl, depth, priority, label: null, rules: [], link, offsiteHops: hops });
        continue;
      }
    }
    const j = strategy.judge(link, source);
    if (j.priority === null) {
      notQueued.set(link.url, 'filtered');
      continue;
    }
    enqueue.push({ url: link.url, parent: result.finalUrl, depth, priority: j.priority, label: j.label, rules: j.rules, link, offsiteHops: hops });
    if (j.label === 'H' && ctx.rejudge) remember.push({ url: link.url, link, parent: result.finalUrl, depth, priority: j.priority, source });
  }
  return { enqueue, remember, external, notQueued, depthDropped };
}
