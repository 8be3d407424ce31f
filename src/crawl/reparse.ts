// **reparseArchive** rebuilds a crawl's store from WARC files, with no fetch: each archived fetch processed as crawled.
import type { CrawlFigures } from '../crawl-log/figures.ts';
import { ArgumentError, RdfscoutError } from '../errors.ts';
import type { FetchResult } from '../fetch/types.ts';
import { compileScope } from '../frontier/index.ts';
import type { FrontierEntry, NewEntry } from '../frontier/types.ts';
import { worthReading } from '../rdf/sniff.ts';
import { openState } from '../state/open-state.ts';
import { type ArchivedItem, listWarcFiles, readArchive } from '../warc/index.ts';
import { isSitemapLink } from './analyse-document.ts';
import { linkTablesHook } from './beebot-hooks.ts';
import { CrawlContexts } from './context-fetcher.ts';
import { ContextStore } from './context-store.ts';
import { Committer } from './commit-plan.ts';
import { type ExplicitOptions, readStoredOptions, saveSeedPlds } from './crawl-meta.ts';
import { optionsFromJson } from './options.ts';
import { type PlanDeps, planFetch } from './plan-fetch.ts';
import { type ArchivedFetch, groupFetches, resultOfForeign, resultOfOurs } from './replay-source.ts';
import { localCoordination } from './local-coordination.ts';
import { restoreCrawl, shouldRejudge } from './restore-crawl.ts';

export interface ReparseOptions {
  /** The new crawl folder (must not hold a crawl). */
  out: string;
  /** WARC files, or folders of them (`*.warc`, `*.warc.gz`, in name order). */
  warc: readonly string[];
  /** The strategy that judges the links found (default: the crawl's, from the WARC; else fc-r+hr). */
  strategy?: string;
  /** Told each record that could not be read (a file cut by a crash) and each fetch skipped for want of its body. */
  onWarning?: (message: string) => void;
}

export interface ReparseSummary {
  files: number;
  /** Fetches processed into records; fetches the crawl put back for a retry (no record, skipped); warnings. */
  records: number;
  retriesSkipped: number;
  warnings: number;
  figures: CrawlFigures;
  /**
   * rdfscout's WARCs: the first and last record seq archived, and the seqs between them with no fetch in the archive
   * (a crawl killed before its archive caught up: the records of its last committed fetches are written after their
   * commit, docs/warc.md; fetches committed after `last` are not known here). Null for other WARCs.
   */
  seqs: { first: number; last: number; missing: number[] } | null;
}

/** The range of `seqs` and the numbers in it that are not there. */
export function seqCoverage(seqs: readonly number[]): { first: number; last: number; missing: number[] } | null {
  if (seqs.length === 0) return null;
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  const first = sorted[0] as number;
  const last = sorted[sorted.length - 1] as number;
  const missing: number[] = [];
  let i = 0;
  for (let n = first; n <= last; n++) {
    if (sorted[i] === n) i++;
    else missing.push(n);
  }
  return { first, last, missing };
}

/** The crawl's options and seeds' PLDs from the first warcinfo of rdfscout's, or (another tool's WARC) the first URL. */
async function archiveHead(files: readonly string[]): Promise<{ options: Record<string, unknown> | null; seedPlds: string[]; firstUrl: string | null }> {
  for await (const item of readArchive(files)) {
    if (item.kind === 'info' && item.fields['rdfscout-options'] !== undefined) {
      return { options: JSON.parse(item.fields['rdfscout-options']), seedPlds: JSON.parse(item.fields['rdfscout-seed-plds'] ?? '[]'), firstUrl: null };
    }
    if (item.kind === 'response' || item.kind === 'fetch') return { options: null, seedPlds: [], firstUrl: item.url };
  }
  return { options: null, seedPlds: [], firstUrl: null };
}

/**
 * Rebuilds the store of a crawl in `o.out` from its WARC files: every archived fetch goes through the crawl's own
 * analysis, plan and commit (same parse, same records, same documents), in archive order; links are judged and
 * counted but never fetched. rdfscout's WARCs carry each fetch's frontier entry (label, depth, parent) and record
 * facts, so the records equal the crawl's; another tool's responses are judged as links found by the pages before
 * them (or as seeds), with scope open. The folder holds no queue to resume: it is for reading (export, query, …).
 */
export async function reparseArchive(o: ReparseOptions): Promise<ReparseSummary> {
  const files = await listWarcFiles(o.warc);
  if (files.length === 0) throw new ArgumentError(`No WARC files (*.warc, *.warc.gz) in ${o.warc.join(', ')}.`);
  const head = await archiveHead(files);
  const seeds = (head.options?.seeds as string[] | undefined)?.length ? (head.options?.seeds as string[]) : head.firstUrl ? [head.firstUrl] : [];
  if (head.options === null && seeds.length === 0) throw new ArgumentError(`No response records in ${o.warc.join(', ')}: nothing to re-parse.`);
  const explicit: ExplicitOptions = {
    ...(head.options === null ? { scope: 'open' as const } : optionsFromJson(head.options)),
    ...(o.strategy ? { strategy: o.strategy } : {}),
    out: o.out,
    seeds: seeds.length > 0 ? seeds : [`http://${head.seedPlds[0]}/`],
    allowPrivate: true, // nothing is fetched: archived URLs are data here
  };
  const state = await openState(o.out);
  try {
    if ((await readStoredOptions(state)) !== undefined) throw new ArgumentError(`${o.out} holds a crawl already; reparse into a new folder.`);
    const init = await restoreCrawl(state, explicit, { coordination: localCoordination({ backend: 'memory' }) });
    for (const pld of head.seedPlds) init.seedPlds.add(pld);
    await saveSeedPlds(state, init.seedPlds);
    const { options, strategy, tally } = init;
    const { frontier } = init;
    const take = frontier.take?.bind(frontier);
    if (take === undefined) throw new RdfscoutError('RDFSCOUT_INTERNAL', 'The memory frontier hands out given URLs (Frontier.take)');
    const rejudge = shouldRejudge(options, strategy);
    const committer = new Committer({ state, frontier, strategy, policy: init.policy, reward: options.reward, rejudge, seq: 0, hooks: options.linkTables ? [linkTablesHook(state)] : [] });
    // JSON-LD remote contexts come from the archive (the crawl's context fetches), never from the network.
    const contexts = options.remoteContexts ? new CrawlContexts({ store: new ContextStore(state), fetch: null }) : null;
    const deps: PlanDeps = { state, committer, strategy, options, scope: compileScope(options, init.seedPlds), rejudge, parse: { remoteContexts: contexts } };
    const summary: ReparseSummary = { files: files.length, records: 0, retriesSkipped: 0, warnings: 0, figures: tally.figures, seqs: null };
    const archivedSeqs: number[] = [];
    const warn = (message: string) => {
      summary.warnings += 1;
      o.onWarning?.(message);
    };
    const onItem = (item: ArchivedItem) => {
      if (item.kind === 'problem') warn(`${item.file}: ${item.message}; skipped`);
    };
    let seq = 0;
    for await (const fetch of groupFetches(readArchive(files), onItem)) {
      if (fetch.kind === 'ours' && fetch.meta.outcome === 'context') {
        // Archived when it was fetched, so before the documents that needed it.
        const result = await resultOfOurs(fetch.meta, fetch.responses, options.maxBodyBytes);
        if (result !== null) await contexts?.remember(fetch.meta.context ?? fetch.meta.result.url, result);
        continue;
      }
      if (fetch.kind === 'ours' && fetch.meta.outcome !== 'recorded') {
        summary.retriesSkipped += 1;
        continue;
      }
      const step = await replayStep(fetch, take, strategy.seedPriority, options.maxBodyBytes);
      if (step === null) {
        warn(`the fetch of ${fetch.kind === 'ours' ? fetch.meta.entry.url : '?'} has no archived body; skipped`);
        continue;
      }
      const { entry, result, facts } = step;
      if (facts.seq !== null) archivedSeqs.push(facts.seq);
      seq = facts.seq ?? seq + 1;
      const stamp = { seq, ms: facts.ms, fetchedAt: facts.fetchedAt };
      const { plan, txn } = await planFetch(deps, entry, result, { robotsSitemaps: facts.robotsSitemaps, stamp: () => stamp });
      tally.add(plan.record);
      await txn.commit();
      await committer.afterCommit(plan.record, options, () => {});
      summary.records += 1;
    }
    summary.seqs = seqCoverage(archivedSeqs);
    const missing = summary.seqs?.missing ?? [];
    if (missing.length > 0) warn(`no archived fetch for the crawl's records with seq ${missing.join(', ')} (the crawl was stopped before its archive caught up)`);
    await committer.persistLearned(seq);
    await state.indexer.flush();
    return summary;
  } finally {
    await state.close();
  }
}

/** The frontier entry (handed out of the frontier) and the rebuilt result of one archived fetch; null without its body. */
async function replayStep(
  fetch: ArchivedFetch,
  take: (url: string, fallback: NewEntry) => FrontierEntry,
  seedPriority: number,
  maxBodyBytes: number,
): Promise<{ entry: FrontierEntry; result: FetchResult; facts: { seq: number | null; ms: number; fetchedAt: string; robotsSitemaps: string[] } } | null> {
  if (fetch.kind === 'ours') {
    const { meta } = fetch;
    const result = await resultOfOurs(meta, fetch.responses, maxBodyBytes);
    if (result === null) return null;
    take(meta.entry.url, meta.entry); // in flight, so that it completes as in the crawl; the crawl's entry is planned
    return { entry: meta.entry, result, facts: { seq: meta.seq ?? null, ms: meta.ms ?? 0, fetchedAt: meta.fetchedAt ?? '', robotsSitemaps: meta.robotsSitemaps ?? [] } };
  }
  const first = fetch.responses[0];
  if (first === undefined) return null;
  const entry = take(first.url, { url: first.url, parent: null, depth: 0, priority: seedPriority, label: null, rules: [], link: null });
  const result = await resultOfForeign(fetch.responses, (type, url) => isSitemapLink(entry.link) || worthReading(type, url), maxBodyBytes);
  const fetchedAt = fetch.responses.at(-1)?.date ?? '';
  return { entry, result, facts: { seq: null, ms: 0, fetchedAt, robotsSitemaps: [] } };
}
