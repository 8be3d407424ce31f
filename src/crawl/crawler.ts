// **Crawler** wires one crawl step together (design.md): scheduler → frontier → fetcher → sniffer → parser/links
// → strategy → store, and owns concurrency. Every finished fetch is committed in one atomic batch.
import diagnostics from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BanditPolicy } from '../bandit/types.ts';
import { createPolicy } from '../bandit/index.ts';
import { markNotAvailable, stageLinkTables } from '../beebot/index.ts';
import { RdfscoutError } from '../errors.ts';
import { Fetcher, Politeness } from '../fetch/index.ts';
import type { FetchResult } from '../fetch/types.ts';
import { LevelFrontier, isInScope } from '../frontier/index.ts';
import type { FrontierEntry, NewEntry, PldQueue } from '../frontier/types.ts';
import { pldOf } from '../links/index.ts';
import type { LinkFeatures } from '../links/types.ts';
import { hasGraph, stageDocument, stagePartial } from '../rdf/index.ts';
import { createStrategy } from '../relevance/index.ts';
import type { FetchedDocument, Strategy } from '../relevance/types.ts';
import { CRAWL_GRAPH, recordToQuads } from '../sparql/crawl-vocab.ts';
import { type CrawlState, openState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import { loadCrawlOptions, saveCrawlOptions } from './crawl-meta.ts';
import { analyseDocument, isSitemapLink } from './analyse-document.ts';
import { originProbes } from './discovery.ts';
import { SimilarQueued } from './similar-queued.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import { lastSeq, readRecords, recordKey } from './records.ts';
import { rewardOf } from './reward.ts';
import { CrawlTally, type CrawlSummary } from './summary.ts';
import type { CrawlRecord } from './types.ts';

/** Reason of the run loop's internal timer cancellations. */
const WAKE = Symbol('wake');

/**
 * Strategies that learn from page text are snapshotted every max(200 records, 10% of the crawl) and at a clean
 * stop: a snapshot grows with the crawl (the topical agent's graph), so a fixed interval would make the crawl
 * quadratic in writes; a geometric one keeps the total written within ~10× the final snapshot.
 */
function snapshotDue(seq: number, lastSnapshotSeq: number): boolean {
  return seq - lastSnapshotSeq >= Math.max(200, Math.floor(seq / 10));
}

// The fetcher publishes rdfscout:fetch:start / rdfscout:fetch:end; the crawl adds what it stored and recorded.
const chRecord = diagnostics.channel('rdfscout:crawl:record');
const chDocument = diagnostics.channel('rdfscout:document:stored');

/** What the crawler reports while it runs (the CLI draws a progress bar or logs lines from it). */
export interface CrawlProgress {
  record: CrawlRecord;
  tally: CrawlTally;
  queued: number;
  inFlight: number;
}

export interface CrawlRunOptions {
  signal?: AbortSignal;
  onRecord?: (p: CrawlProgress) => void;
}

/** How a processed fetch ends: committed as a record, or put back for a retry. */
type Outcome = { kind: 'recorded'; record: CrawlRecord } | { kind: 'retry' } | { kind: 'aborted' };

/**
 * One crawl over one output folder. `open()` creates or resumes it (options of an existing crawl are reused;
 * conflicting identity options are refused), `run()` crawls until the budget is spent, the frontier is empty,
 * or the signal aborts. In-flight fetches interrupted by an abort are not committed: they stay queued.
 */
export class Crawler {
  readonly options: ResolvedCrawlOptions;
  readonly state: CrawlState;
  readonly #frontier: LevelFrontier;
  readonly #strategy: Strategy;
  readonly #policy: BanditPolicy | null;
  readonly #fetcher: Fetcher;
  readonly #politeness: Politeness;
  readonly #tally: CrawlTally;
  readonly #seedPlds: Set<string>;
  readonly #resumed: boolean;
  #seq: number;
  #lastSnapshotSeq: number;
  /** In-flight fetches per PLD (for the per-PLD budget and concurrency). */
  readonly #inFlightPerPld = new Map<string, number>();
  #inFlight = 0;
  #fatal: RdfscoutError | null = null;
  /** Queued H links by r1/r2 keys, judged again when C_HR(t) learns a parent similar to them (thesis §5). */
  readonly #similar = new SimilarQueued();
  /** PLDs whose start page could not be fetched (BeeBot's Not Available); the bandit no longer serves them. */
  readonly #unavailable = new Set<string>();

  private constructor(init: {
    options: ResolvedCrawlOptions;
    state: CrawlState;
    frontier: LevelFrontier;
    strategy: Strategy;
    policy: BanditPolicy | null;
    tally: CrawlTally;
    seq: number;
    seedPlds: Set<string>;
    resumed: boolean;
  }) {
    this.options = init.options;
    this.state = init.state;
    this.#frontier = init.frontier;
    this.#strategy = init.strategy;
    this.#policy = init.policy;
    this.#tally = init.tally;
    this.#seq = init.seq;
    this.#lastSnapshotSeq = init.seq;
    this.#seedPlds = init.seedPlds;
    this.#resumed = init.resumed;
    const o = init.options;
    this.#fetcher = new Fetcher({
      proxy: o.proxy ?? undefined,
      allowPrivate: o.allowPrivate,
      connectTimeoutMs: o.connectTimeoutMs,
      headersTimeoutMs: o.headersTimeoutMs,
      bodyTimeoutMs: o.bodyTimeoutMs,
      totalTimeoutMs: o.totalTimeoutMs,
      maxBodyBytes: o.maxBodyBytes,
      ...(o.userAgent ? { userAgent: o.userAgent } : {}),
    });
    this.#politeness = new Politeness({ delayMs: o.delayMs, hostConcurrency: o.hostConcurrency });
  }

  /**
   * Opens a crawl in `explicit.out`: a new one, or a resume of what is there. `explicit` holds only the options
   * the user gave; the stored ones fill the rest.
   */
  static async open(explicit: Parameters<typeof loadCrawlOptions>[1]): Promise<Crawler> {
    const state = await openState(explicit.out);
    try {
      const { options, resumed } = await loadCrawlOptions(state, explicit);
      const strategy = createStrategy(options.strategy);
      const policy = options.bandit === 'none' ? null : createPolicy(options.bandit, { budget: finiteOr(options.maxDocs, 100_000), seed: options.seed });
      const frontier = await LevelFrontier.open(state);
      const tally = new CrawlTally();
      // The strategy's learned state is a function of the records (thesis §5 learning step): replay it. Strategies
      // that also learn from page text (observePage) are restored from their last snapshot, then replayed after it.
      const saved = (await getOrNull(state.sub.learned, 'strategy')) as { seq: number; state: unknown } | null;
      if (saved !== null && strategy.observePage) strategy.restore(saved.state);
      const replayAfter = saved !== null && strategy.observePage ? saved.seq : 0;
      for await (const record of readRecords(state)) {
        tally.add(record);
        if (record.seq > replayAfter) strategy.learn(toFetchedDocument(record));
      }
      if (policy) {
        const saved = await getOrNull(state.sub.learned, 'bandit');
        if (saved !== null) policy.restore(saved);
      }
      const seq = await lastSeq(state);
      const storedSeedPlds = ((await getOrNull(state.sub.meta, 'seedPlds')) as string[] | null) ?? [];
      const seedPlds = new Set<string>(storedSeedPlds);
      const newSeeds: NewEntry[] = [];
      for (const url of options.seeds) {
        seedPlds.add(pldOf(url));
        newSeeds.push({ url, parent: null, depth: 0, priority: strategy.seedPriority, label: null, rules: [], link: null });
      }
      await saveCrawlOptions(state, options);
      await state.sub.meta.put('seedPlds', [...seedPlds]);
      await frontier.add(newSeeds);
      return new Crawler({ options, state, frontier, strategy, policy, tally, seq, seedPlds, resumed });
    } catch (err) {
      await state.close();
      throw err;
    }
  }

  get tally(): CrawlTally {
    return this.#tally;
  }

  /** Crawls until the budget is spent, nothing is left, or `signal` aborts. */
  async run(runOptions: CrawlRunOptions = {}): Promise<CrawlSummary> {
    const started = performance.now();
    const { signal } = runOptions;
    const active = new Set<Promise<void>>();
    let stoppedBy: CrawlSummary['stoppedBy'] = 'exhausted';
    const wakeUp = new AbortController();
    signal?.addEventListener('abort', () => wakeUp.abort(), { once: true });

    while (this.#fatal === null) {
      if (signal?.aborted) {
        stoppedBy = 'interrupted';
        break;
      }
      if (this.#budgetLeft() <= 0) {
        stoppedBy = 'budget';
        break;
      }
      let dispatched = false;
      while (active.size < this.options.concurrency && this.#budgetLeft() > 0) {
        const entry = this.#pick(Date.now());
        if (entry === null) break;
        dispatched = true;
        const job = this.#runOne(entry, runOptions).finally(() => active.delete(job));
        active.add(job);
      }
      if (active.size === 0 && !dispatched) {
        if (this.#frontier.loading) {
          await this.#frontier.settled(); // a PLD's head is being read from disk: wait for it, not for a timer
          continue;
        }
        const wake = this.#nextWake(Date.now());
        if (wake === null) {
          stoppedBy = 'exhausted';
          break;
        }
        await sleepUntil(wake, wakeUp.signal);
        continue;
      }
      // Wait for a fetch to finish or for a PLD to wake up, whichever comes first; cancel the timer after.
      const wake = active.size < this.options.concurrency ? this.#nextWake(Date.now()) : null;
      const timer = new AbortController();
      const cancel = () => timer.abort(WAKE);
      wakeUp.signal.addEventListener('abort', cancel, { once: true });
      const waits: Promise<unknown>[] = [...active];
      if (wake !== null) waits.push(sleepUntil(wake, timer.signal));
      await Promise.race(waits);
      timer.abort(WAKE); // a preset reason: no DOMException built on every loop
      wakeUp.signal.removeEventListener('abort', cancel);
    }
    await Promise.allSettled(active);
    await this.#persistLearned();
    if (this.#fatal) throw this.#fatal;
    return this.#tally.summary(Math.round(performance.now() - started), stoppedBy, this.#resumed);
  }

  async close(): Promise<void> {
    await this.#fetcher.close();
    await this.state.close();
  }

  /** Fetches still allowed by the total budget (records so far plus those in flight). */
  #budgetLeft(): number {
    return this.options.maxDocs - this.#tally.spent - this.#inFlight;
  }

  /** A PLD's budget spent: its requests so far (robots refusals excepted) plus those in flight. */
  #pldSpent(pld: string): number {
    const t = this.#tally.pld(pld);
    return t.fetched - t.denied + (this.#inFlightPerPld.get(pld) ?? 0);
  }

  /** Whether a PLD's queue may be served at all (work left, budget left, not Not Available); politeness aside. */
  #eligible(q: PldQueue): boolean {
    return q.queued > 0 && this.#pldSpent(q.pld) < this.options.maxDocsPerPld && !this.#unavailable.has(q.pld);
  }

  /** Chooses the next link: among awake PLDs with work, by the bandit or by the global (priority, seq) order. */
  #pick(now: number): FrontierEntry | null {
    const excluded = new Set<string>();
    for (;;) {
      const candidates = this.#frontier.queues().filter((q) => !excluded.has(q.pld) && this.#eligible(q) && this.#politeness.canStart(q.pld, q.pld, now));
      if (candidates.length === 0) return null;
      let pld: string;
      if (this.#policy === null) {
        let best = candidates[0]!;
        for (const q of candidates) {
          if (q.headPriority < best.headPriority || (q.headPriority === best.headPriority && q.headSeq < best.headSeq)) best = q;
        }
        pld = best.pld;
      } else {
        pld = this.#policy.choose(candidates.map((q) => q.pld));
      }
      const entry = this.#frontier.next(pld, now);
      if (entry !== null) {
        this.#similar.delete(entry.url);
        return entry;
      }
      excluded.add(pld);
    }
  }

  /** When something may become available: the earliest politeness wake-up or retry time; null when nothing is left. */
  #nextWake(now: number): number | null {
    let earliest: number | null = null;
    for (const q of this.#frontier.queues()) {
      if (!this.#eligible(q)) continue;
      const ready = this.#politeness.readyAt(q.pld, q.pld, now);
      if (!Number.isFinite(ready)) continue; // busy until an in-flight fetch ends, which wakes the loop anyway
      const t = Math.max(ready, now + 5);
      if (earliest === null || t < earliest) earliest = t;
    }
    if (earliest === null && this.#inFlight > 0) return now + 50;
    return earliest;
  }

  async #runOne(entry: FrontierEntry, runOptions: CrawlRunOptions): Promise<void> {
    this.#inFlight += 1;
    this.#inFlightPerPld.set(entry.pld, (this.#inFlightPerPld.get(entry.pld) ?? 0) + 1);
    // A fetch stops being "in flight" when it joins the tally (before its commit), so budgets never count it twice.
    const flight = { landed: false };
    const land = () => {
      if (flight.landed) return;
      flight.landed = true;
      this.#inFlight -= 1;
      this.#inFlightPerPld.set(entry.pld, (this.#inFlightPerPld.get(entry.pld) ?? 1) - 1);
    };
    try {
      const outcome = await this.#process(entry, runOptions.signal, land);
      if (outcome.kind === 'recorded') {
        runOptions.onRecord?.({ record: outcome.record, tally: this.#tally, queued: this.#frontier.size().queued, inFlight: this.#inFlight });
      }
    } catch (err) {
      // A failure to write the store ends the crawl: continuing would lose data.
      this.#fatal = err instanceof RdfscoutError ? err : new RdfscoutError('RDFSCOUT_STORE_FAILED', String((err as Error)?.message ?? err), { cause: err });
    } finally {
      land();
    }
  }

  async #process(entry: FrontierEntry, signal: AbortSignal | undefined, land: () => void): Promise<Outcome> {
    const t0 = performance.now();
    const { pld } = entry;
    this.#politeness.start(pld, pld, Date.now());
    let result: FetchResult;
    try {
      result = await this.#fetcher.fetch(entry.url, {
        read: (head) => isSitemapLink(entry.link) || this.#strategy.shouldRead({ url: head.url, label: entry.label }, head.contentType),
        ...(signal ? { signal } : {}),
      });
    } finally {
      this.#politeness.finish(pld, pld, Date.now());
    }
    if (signal?.aborted) return { kind: 'aborted' };
    const delay = this.#fetcher.crawlDelayMs(entry.url);
    if (delay !== null && delay > 0) this.#politeness.setCrawlDelay(pld, delay);

    if (this.#shouldRetry(entry, result)) {
      const waitMs = retryDelay(result, entry.attempts, this.options.delayMs);
      if (result.kind === 'http-error' && result.retryAfterMs !== null) this.#politeness.backoff(pld, Date.now() + waitMs);
      const txn = this.state.txn();
      this.#frontier.retry(entry, Date.now() + waitMs, txn);
      await txn.commit();
      return { kind: 'retry' };
    }

    const txn = this.state.txn();
    const doc = await analyseDocument(result, entry.link, this.options);
    const { detectedType } = doc;
    let { error, errorMessage } = doc;

    // Store the document's quads (all or nothing), unless the final URL is already stored (a duplicate reached by
    // another URL): one document, one graph.
    let triples = 0;
    if (doc.quads.length > 0) {
      if (await hasGraph(this.state, result.finalUrl)) {
        errorMessage = `duplicate: ${result.finalUrl} is already stored`;
      } else {
        triples = stageDocument(this.state, txn, result.finalUrl, doc.quads);
        chDocument.publish({ url: result.finalUrl, triples });
      }
    } else if (doc.partial.length > 0 && error !== null) {
      stagePartial(this.state, txn, result.finalUrl, { error: { code: error, message: errorMessage ?? '' }, quads: doc.partial });
    }
    for (const dump of doc.voidPoints.dumps) txn.put(this.state.sub.meta, `void!dump!${dump}`, { url: dump, foundIn: result.finalUrl });
    for (const ep of doc.voidPoints.endpoints) txn.put(this.state.sub.meta, `void!endpoint!${ep}`, { url: ep, foundIn: result.finalUrl });

    // Judge the links (thesis §6) and queue the ones the strategy keeps, inside the crawl's scope (thesis §11).
    const depth = entry.depth + 1;
    const newEntries: NewEntry[] = [];
    let external = 0;
    // Sitemaps of a seed's origin (named by robots.txt, or probed), and sitemap files listed by a sitemap index.
    const direct = [...doc.sitemaps];
    if (entry.parent === null && entry.link === null) {
      direct.push(...originProbes(entry.url, this.#fetcher.sitemapsOf(entry.url), this.options.probeWellKnown));
    }
    for (const link of direct) {
      if (!isInScope({ url: link.url, parentPld: pld }, this.#seedPlds)) continue;
      const rules = [link.rel];
      newEntries.push({ url: link.url, parent: result.finalUrl, depth, priority: this.#strategy.seedPriority + 0.5, label: null, rules, link });
    }
    if (depth <= this.options.maxDepth) {
      const source = { url: result.finalUrl, depth: entry.depth, type: doc.linkSource };
      const inScope: LinkFeatures[] = [];
      for (const link of doc.links) {
        const offSite = pldOf(link.url) !== pld;
        if (offSite) external += 1;
        if (offSite && this.options.stayOnSite) continue; // BeeBot: external links are recorded, not crawled
        if (isInScope({ url: link.url, parentPld: pld }, this.#seedPlds)) inScope.push(link);
      }
      if (this.#strategy.observePage && detectedType !== null) {
        this.#strategy.observePage({ url: result.finalUrl, depth: entry.depth, type: detectedType, text: doc.text, links: inScope });
      }
      for (const link of inScope) {
        const j = this.#strategy.judge(link, source);
        if (j.priority === null) continue;
        newEntries.push({ url: link.url, parent: result.finalUrl, depth, priority: j.priority, label: j.label, rules: j.rules, link });
        if (j.label === 'H' && this.options.rejudgeQueued) this.#similar.add({ url: link.url, link, parent: result.finalUrl, depth, priority: j.priority, source });
      }
    } else {
      for (const link of doc.links) if (pldOf(link.url) !== pld) external += 1;
    }

    // BeeBot's tables (BeeBot §2): internal and external links of every HTML page, with anchor and context.
    if (this.options.linkTables && detectedType === 'html') {
      stageLinkTables(this.state, txn, { url: result.finalUrl, site: pld, level: entry.depth }, doc.links, (u) => pldOf(u) === pld);
    }

    this.#seq += 1;
    const record: CrawlRecord = {
      seq: this.#seq,
      url: entry.url,
      finalUrl: result.finalUrl,
      status: result.status,
      outcome: result.kind,
      contentType: doc.contentType,
      detectedType,
      rdfFormat: doc.rdfFormat,
      parent: entry.parent,
      depth: entry.depth,
      pld,
      triples,
      linksQueued: 0,
      error,
      errorMessage,
      label: entry.label,
      rules: entry.rules,
      redirects: result.redirects,
      ms: Math.round(performance.now() - t0),
      fetchedAt: new Date().toISOString(),
    };
    record.linksQueued = await this.#frontier.add(newEntries, txn);
    txn.put(this.state.sub.records, recordKey(record.seq), record);
    if (this.options.crawlGraph) txn.putQuads(recordToQuads(record, this.state.dataFactory)); // in its own graph (CRAWL_GRAPH)
    for (const [i, b] of doc.bad.entries()) txn.put(this.state.sub.badlinks, `${recordKey(record.seq)}!${i}`, b);
    for (const hop of result.redirects) txn.put(this.state.sub.redirects, hop.from, hop);
    const aliases = [result.finalUrl, ...result.redirects.map((h) => h.to)].filter((u) => u !== entry.url);
    this.#frontier.complete(entry, txn, aliases);

    const learned = toFetchedDocument(record);
    this.#strategy.learn(learned);
    if (learned.type === 'rdf' && learned.parent !== null && this.options.rejudgeQueued) await this.#rejudgeSimilarTo(learned.parent, txn);
    if (this.#strategy.observePage && snapshotDue(record.seq, this.#lastSnapshotSeq)) {
      this.#lastSnapshotSeq = record.seq;
      txn.put(this.state.sub.learned, 'strategy', { seq: record.seq, state: this.#strategy.snapshot() });
    }
    if (this.#policy) {
      this.#policy.update(pld, rewardOf(this.options.reward, record, external));
      txn.put(this.state.sub.learned, 'bandit', this.#policy.snapshot());
    }
    land();
    this.#tally.add(record);
    await txn.commit();
    if (chRecord.hasSubscribers) chRecord.publish(record);
    // A PLD with nothing queued or in flight leaves the bandit's game (it comes back if new links for it appear).
    if (this.#policy && !this.#frontier.queues().some((q) => q.pld === pld && (q.queued > 0 || q.inFlight > 0))) this.#policy.retire(pld);
    // BeeBot mode: a site whose start page cannot be fetched is Not Available and leaves the game (BeeBot §2).
    if (this.options.stayOnSite && entry.parent === null && entry.link === null && result.kind !== 'ok' && result.kind !== 'skipped') {
      await markNotAvailable(this.state, pld);
      this.#unavailable.add(pld);
      this.#policy?.retire(pld);
    }
    return { kind: 'recorded', record };
  }

  /**
   * C_HR(t) has (perhaps) learned `parent`: queued H links similar to it are judged again, and those now more
   * urgent (e.g. HR by r1) are re-prioritised in the frontier, in the same transaction.
   */
  async #rejudgeSimilarTo(parent: string, txn: Txn): Promise<void> {
    const upgrades: NewEntry[] = [];
    for (const q of this.#similar.similarTo(parent)) {
      const j = this.#strategy.judge(q.link, q.source);
      if (j.priority === null || j.priority >= q.priority) continue;
      upgrades.push({ url: q.url, parent: q.parent, depth: q.depth, priority: j.priority, label: j.label, rules: j.rules, link: q.link });
      this.#similar.delete(q.url);
    }
    if (upgrades.length > 0) await this.#frontier.add(upgrades, txn);
  }

  #shouldRetry(entry: FrontierEntry, result: FetchResult): boolean {
    if (entry.attempts >= this.options.maxRetries) return false;
    if (result.kind === 'failed') return result.retryable;
    if (result.kind === 'http-error') return result.status === 429 || result.status === 503;
    return false;
  }

  /** On a clean stop: the bandit's and (for text-learning strategies) the strategy's latest state. */
  async #persistLearned(): Promise<void> {
    if (this.state.db.status !== 'open') return;
    if (this.#policy) await this.state.sub.learned.put('bandit', this.#policy.snapshot());
    if (this.#strategy.observePage) await this.state.sub.learned.put('strategy', { seq: this.#seq, state: this.#strategy.snapshot() });
  }
}

export { CRAWL_GRAPH };

/** The learning input a record carries (thesis §5): replaying records rebuilds the strategy's state. */
export function toFetchedDocument(r: CrawlRecord): FetchedDocument {
  return {
    url: r.url,
    finalUrl: r.finalUrl,
    parent: r.parent,
    status: r.status,
    type: r.error !== null && r.detectedType === 'rdf' ? 'other' : r.detectedType,
    contentType: r.contentType,
    label: r.label,
    rules: r.rules,
  };
}

function retryDelay(result: FetchResult, attempts: number, delayMs: number): number {
  if (result.kind === 'http-error' && result.retryAfterMs !== null) return Math.min(result.retryAfterMs, 600_000);
  return Math.max(delayMs, 500) * 2 ** attempts;
}

function finiteOr(n: number, fallback: number): number {
  return Number.isFinite(n) ? n : fallback;
}

async function sleepUntil(when: number, signal: AbortSignal): Promise<void> {
  const ms = Math.max(0, when - Date.now());
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // aborted: the caller checks the signal
  }
}

// biome-ignore lint/suspicious/noExplicitAny: sublevel of JSON values
async function getOrNull(sub: any, key: string): Promise<unknown> {
  const v = await sub.get(key);
  return v === undefined ? null : v;
}
