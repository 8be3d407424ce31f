// **planFetch**: a fetched URL analysed, planned and staged in its own transaction, the same for a crawl and a re-parse.
import type { FetchResult } from '../fetch/types.ts';
import type { Scope } from '../frontier/scope.ts';
import type { FrontierEntry } from '../frontier/types.ts';
import type { ParseOptions } from '../rdf/index.ts';
import type { Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import { type Analyse, type AnalysisOptions, analyseDocument } from './analyse-document.ts';
import type { Committer } from './commit-plan.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import { type DocumentPlan, processDocument } from './process-document.ts';

/** What every fetch is planned with: the crawl's stores, strategy, options and scope. */
export interface PlanDeps {
  state: CrawlState;
  committer: Committer;
  strategy: Strategy;
  options: ResolvedCrawlOptions;
  scope: Scope;
  rejudge: boolean;
  /** The frontier's `ignores`, when it has one (see `DocumentContext.ignores`). */
  ignores?: (url: string, priority: number) => boolean;
  /** How documents are parsed (JSON-LD remote contexts, fast path); default: the parser's defaults. */
  parse?: ParseOptions;
  /** What analyses each fetched document: a pool of parse workers (`--threads`), or, without, `analyseDocument` here. */
  analyse?: Analyse;
}

/** Facts of one fetch the plan needs besides its result; `stamp` is asked once the graph is claimed. */
export interface PlanFacts {
  robotsSitemaps: readonly string[];
  /** The record's seq, wall time (ms) and completion time (ISO). */
  stamp: () => { seq: number; ms: number; fetchedAt: string };
}

/**
 * Analyses `result` (thesis §7 step 3), claims its graph unless it is stored already, plans it (`processDocument`)
 * and stages the plan in a new transaction, which the caller commits.
 */
export async function planFetch(d: PlanDeps, entry: FrontierEntry, result: FetchResult, facts: PlanFacts): Promise<{ plan: DocumentPlan; txn: Txn }> {
  const txn = d.state.txn();
  // The document's quads go to the store as they are parsed; its graph is reserved for this fetch unless it is
  // stored (or being stored) already.
  const openDocument = (finalUrl: string) => d.committer.openDocument(entry.url, finalUrl, d.options.queues === 'one');
  const doc = await (d.analyse ?? analyseDocument)(result, entry.link, analysisOptions(d), openDocument);
  const plan = processDocument(entry, result, doc, {
    strategy: d.strategy,
    options: d.options,
    scope: d.scope,
    rejudge: d.rejudge,
    ...(d.ignores === undefined ? {} : { ignores: d.ignores }),
    robotsSitemaps: facts.robotsSitemaps,
    ...facts.stamp(),
  });
  await d.committer.stage(plan, txn);
  return { plan, txn };
}

const analysisOptionsOf = new WeakMap<PlanDeps, AnalysisOptions>();

/** The crawl's options as `analyseDocument` reads them, once per crawl: a page's text only for a strategy that observes pages. */
function analysisOptions(d: PlanDeps): AnalysisOptions {
  let o = analysisOptionsOf.get(d);
  if (o === undefined) {
    const { followRdfLinks, maxLinksPerDoc, normalize, strictRdf } = d.options;
    // --strict-rdf is a parse option: all or nothing for every document of the crawl.
    const parse = strictRdf ? { ...d.parse, strict: true } : d.parse;
    o = { followRdfLinks, maxLinksPerDoc, normalize, pageText: d.strategy.observePage !== undefined, ...(parse === undefined ? {} : { parse }) };
    analysisOptionsOf.set(d, o);
  }
  return o;
}
