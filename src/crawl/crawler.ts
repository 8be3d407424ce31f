// **Crawler** wires one crawl step together (design.md): scheduler → frontier → fetcher → sniffer → parser/links
// → strategy → store, and owns concurrency. Every finished fetch is committed in one atomic batch.
import diagnostics from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BanditPolicy } from '../bandit/types.ts';
import { markNotAvailable, stageLinkTables } from '../beebot/index.ts';
import { RdfscoutError } from '../errors.ts';
import { Fetcher, Politeness } from '../fetch/index.ts';
import { OutageDetector, type OutageEvent } from '../fetch/outage.ts';
import type { FetchResult } from '../fetch/types.ts';
import { compileScope, hopsOf, judgeScope, type Scope } from '../frontier/index.ts';
import type { FrontierEntry, NewEntry, PldQueue } from '../frontier/types.ts';
import { HTML_VARIANT_ACCEPT, hostOf, htmlVariantLink, isHtmlVariant, negotiatedResource, pldOf } from '../links/index.ts';
import type { LinkFeatures } from '../links/types.ts';
import { hasGraph, stageDocument, stagePartial, worthReading } from '../rdf/index.ts';
import { BARREN_RULE } from '../relevance/pattern-yield.ts';
import type { Strategy } from '../relevance/types.ts';
import { CRAWL_GRAPH } from '../sparql/crawl-vocab.ts';
import { type CrawlState, openState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import type { CrawlControl, CrawlView } from './control.ts';
import { analyseDocument, type DocumentAnalysis, isSitemapLink } from './analyse-document.ts';
import { stageBanditChanges } from './bandit-state.ts';
import type { ExplicitOptions } from './crawl-meta.ts';
import { originProbes } from './discovery.ts';
import type { ResolvedCrawlOptions } from './options.ts';
import { recordKey, stageRecordWrite } from './records.ts';
import { type CrawlFrontier, type RestoredCrawl, restoreCrawl, shouldRejudge, toFetchedDocument } from './restore-crawl.ts';
import { rewardOf } from './reward.ts';
import type { SimilarQueued } from './similar-queued.ts';
import { ReadySet } from './ready-set.ts';
import { type CrawlSummary, type CrawlTally, stopReason } from './summary.ts';
import type { RefusedSeed } from './seed-list.ts';
import type { CrawlRecord } from './types.ts';

/** Reason of the run loop's internal timer cancellations. */
const WAKE = Symbol('wake');
/** Every PLD is placed afresh at least this often (ms): a safety net under the event-driven ready set. */
const FULL_SCAN_MS = 1000;

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
const chOutage = diagnostics.channel('rdfscout:crawl:outage');

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
  /** Operator commands (pause, resume, stop, seeds, blocks) consulted by the run loop; it also gets the crawler's live view. */
  control?: CrawlControl;
  /** Told when every request fails at the connection level and the crawl pauses, and when it resumes (issue 16 item 3). */
  onOutage?: (e: OutageEvent) => void;
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
  readonly #frontier: CrawlFrontier;
  readonly #strategy: Strategy;
  readonly #policy: BanditPolicy | null;
  readonly #fetcher: Fetcher;
  readonly #politeness: Politeness;
  readonly #tally: CrawlTally;
  readonly #seedPlds: Set<string>;
  /** What the crawl may leave its seeds for (issue 16 item 1). */
  readonly #scope: Scope;
  readonly #resumed: boolean;
  #seq: number;
  #lastSnapshotSeq: number;
  /** In-flight fetches per PLD (for the per-PLD budget and concurrency). */
  readonly #inFlightPerPld = new Map<string, number>();
  #inFlight = 0;
  #fatal: RdfscoutError | null = null;
  /** Queued H links by r1/r2 keys, judged again when C_HR(t) learns a parent similar to them (thesis §5). */
  readonly #similar: SimilarQueued;
  /** PLDs servable now, and when the others wake (#evaluate places a PLD after every change to it). */
  readonly #ready = new ReadySet();
  #lastFullScan = Number.NEGATIVE_INFINITY;
  /** Queued H links are indexed and judged again (--fixed-labels off, and the strategy learns RDF parents). */
  readonly #rejudge: boolean;
  /** Final URLs of documents staged by fetches whose transaction has not committed yet. */
  readonly #storing = new Set<string>();
  /** PLDs whose start page could not be fetched (BeeBot's Not Available); the bandit no longer serves them. */
  readonly #unavailable = new Set<string>();
  /** The operator's commands for the current run (dashboard); null without one. */
  #control: CrawlControl | null = null;
  /** Seeds refused before any request (private address, localhost): never queued, never counted as fetched. */
  readonly refusedSeeds: readonly RefusedSeed[];
  /** Connectivity: pauses the crawl when every request fails at the connection level (issue 16 item 3). */
  readonly #outage = new OutageDetector();
  #onOutage: ((e: OutageEvent) => void) | undefined;
  /** Links not queued in this run because they were deeper than --max-depth. */
  #depthDropped = 0;

  private constructor(state: CrawlState, init: RestoredCrawl) {
    this.options = init.options;
    this.state = state;
    this.#frontier = init.frontier;
    this.#strategy = init.strategy;
    this.#policy = init.policy;
    this.#tally = init.tally;
    this.#seq = init.seq;
    this.#lastSnapshotSeq = init.seq;
    this.#seedPlds = init.seedPlds;
    this.#scope = compileScope(init.options, init.seedPlds);
    this.#resumed = init.resumed;
    this.#similar = init.similar;
    this.#rejudge = shouldRejudge(init.options, init.strategy);
    this.refusedSeeds = init.refusedSeeds;
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
   * Opens a crawl in `explicit.out`: a new one, or a resume of what is there (`restoreCrawl`). `explicit` holds only
   * the options the user gave; the stored ones fill the rest.
   */
  static async open(explicit: ExplicitOptions): Promise<Crawler> {
    const state = await openState(explicit.out);
    try {
      return new Crawler(state, await restoreCrawl(state, explicit));
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
    // Control hook (dashboard): stop() aborts like the caller's signal; the loop consults pause/seeds/blocks below.
    const control = runOptions.control ?? null;
    this.#control = control;
    if (control) control.view = this.#view();
    const signal = control ? (runOptions.signal ? AbortSignal.any([runOptions.signal, control.stopSignal]) : control.stopSignal) : runOptions.signal;
    runOptions = { ...runOptions, ...(signal ? { signal } : {}) };
    const active = new Set<Promise<void>>();
    const wakeUp = new AbortController();
    signal?.addEventListener('abort', () => wakeUp.abort(), { once: true });
    let offline = false;
    this.#onOutage = runOptions.onOutage;

    while (this.#fatal === null) {
      if (signal?.aborted) break;
      if (this.#outage.offlineFor(Date.now()) > this.options.maxOfflineMs) {
        offline = true; // what failed is still queued: a resume tries it again
        break;
      }
      if (this.#budgetLeft() <= 0) {
        if (active.size === 0) break;
        // The budget is held by fetches in flight; one may yet give its slot back (a robots refusal, a retry put
        // back in the queue): wait for them rather than stop one short of --max-docs (issue 16 item 10).
        await Promise.race(active);
        continue;
      }
      if (control?.hasRequests) await this.#applyControl(control);
      if (control?.paused && active.size === 0) {
        await idleUntil(Date.now() + 60_000, wakeUp.signal, control); // paused: wait for the operator (or an abort)
        continue;
      }
      let dispatched = false;
      while (!control?.paused && active.size < this.options.concurrency && this.#budgetLeft() > 0 && this.#outage.canStart(Date.now())) {
        const entry = this.#pick(Date.now());
        if (entry === null) break;
        dispatched = true;
        const job = this.#runOne(entry, runOptions).finally(() => active.delete(job));
        active.add(job);
        this.#evaluate(entry.pld, Date.now()); // started: politeness delay, host concurrency, budget
      }
      if (active.size === 0 && !dispatched) {
        if (this.#frontier.loading) {
          await this.#frontier.settled(); // a PLD's head is being read from disk: wait for it, not for a timer
          continue;
        }
        const wake = this.#outageWake(this.#nextWake(Date.now()));
        if (wake === null) break;
        await idleUntil(wake, wakeUp.signal, control); // new seeds may give work before then
        continue;
      }
      // Wait for a fetch to finish or for a PLD to wake up, whichever comes first; cancel the timer after.
      const wake = active.size < this.options.concurrency && !control?.paused ? this.#outageWake(this.#nextWake(Date.now())) : null;
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
    if (this.#fatal) throw this.#fatal; // the store failed: nothing more is written
    await this.#persistLearned();
    await this.state.indexer.flush(); // a finished crawl is fully indexed for SPARQL (documents are indexed in bulk, issue 18)
    const stoppedBy = stopReason({
      aborted: signal?.aborted === true,
      offline,
      budgetLeft: this.#budgetLeft(),
      queued: this.#frontier.size().queued,
      pldBudgetReached: [...this.#tally.perPld.values()].some((t) => t.fetched >= this.options.maxDocsPerPld),
      depthDropped: this.#depthDropped,
    });
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
    return this.#tally.spentOf(pld) + (this.#inFlightPerPld.get(pld) ?? 0);
  }

  /**
   * Places a PLD in the ready set after anything about it changed: servable now (work due, budget left, not Not
   * Available, politeness allows), asleep until its politeness delay or retry back-off ends, or out until the
   * next change (nothing queued, budget spent, host at its concurrency limit).
   */
  #evaluate(pld: string, now: number): void {
    if (this.#unavailable.has(pld) || this.#control?.isBlocked(pld) || this.#pldSpent(pld) >= this.options.maxDocsPerPld) {
      this.#ready.place(pld, null, now);
      return;
    }
    // dueAt: the earliest retry back-off end among its queued entries (Infinity when none is queued).
    this.#ready.place(pld, Math.max(this.#politeness.readyAt(pld, pld, now), this.#frontier.dueAt(pld)), now);
  }

  /** Every PLD with work, placed afresh: at the start, and now and then as a safety net (FULL_SCAN_MS). */
  #evaluateAll(now: number): void {
    for (const q of this.#frontier.queues()) this.#evaluate(q.pld, now);
    this.#lastFullScan = now;
  }

  /** Chooses the next link: among ready PLDs, by the bandit or by the global (priority, seq) order. */
  #pick(now: number): FrontierEntry | null {
    if (now - this.#lastFullScan >= FULL_SCAN_MS) this.#evaluateAll(now);
    const candidates = [...this.#ready.wake(now)];
    for (;;) {
      if (candidates.length === 0) return null;
      let pld: string;
      if (this.#policy === null) {
        let best: PldQueue | null = null;
        for (const name of candidates) {
          const q = this.#frontier.queueOf(name);
          if (q !== null && (best === null || q.headPriority < best.headPriority || (q.headPriority === best.headPriority && q.headSeq < best.headSeq))) best = q;
        }
        pld = best?.pld ?? (candidates[0] as string);
      } else {
        pld = this.#policy.choose(candidates);
      }
      const entry = this.#frontier.next(pld, now);
      if (entry !== null) {
        this.#similar.delete(entry.url);
        return entry;
      }
      // Its head waits (a retry back-off: it goes to sleep; a disk read: it stays ready for the next pick).
      this.#evaluate(pld, now);
      candidates.splice(candidates.indexOf(pld), 1);
    }
  }

  /** When something may become available: now + 5 ms while PLDs are ready but unserved (heads read from disk), else the earliest wake-up; null when nothing is left. */
  #nextWake(now: number): number | null {
    if (this.#ready.wake(now).size > 0) return now + 5;
    let earliest = this.#ready.nextWake();
    if (earliest === null && this.#inFlight === 0) {
      this.#evaluateAll(now); // before concluding that nothing is left
      if (this.#ready.wake(now).size > 0) return now;
      earliest = this.#ready.nextWake();
    }
    if (earliest !== null) return Math.max(earliest, now + 5);
    return this.#inFlight > 0 ? now + 50 : null;
  }

  /** While the crawl is paused by an outage, nothing starts before the pause ends (then one probe). */
  #outageWake(wake: number | null): number | null {
    const until = this.#outage.pausedUntil;
    if (until === 0 || wake === null) return wake;
    return Math.max(wake, until);
  }

  async #runOne(entry: FrontierEntry, runOptions: CrawlRunOptions): Promise<void> {
    const probe = this.#outage.start(); // while paused, the one request that tests the network
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
      const outcome = await this.#process(entry, runOptions.signal, land, probe);
      if (outcome.kind === 'recorded') {
        runOptions.onRecord?.({ record: outcome.record, tally: this.#tally, queued: this.#frontier.size().queued, inFlight: this.#inFlight });
      }
    } catch (err) {
      // A failure to write the store (RDFSCOUT_STORE_FAILED, from the Txn) or a bug ends the crawl: continuing could
      // lose data. Nothing of this fetch was committed, so a resume fetches it again.
      this.#fatal =
        err instanceof RdfscoutError
          ? err
          : new RdfscoutError('RDFSCOUT_INTERNAL', `Unexpected error while processing ${entry.url}: ${String((err as Error)?.stack ?? err)}`, { cause: err, url: entry.url });
    } finally {
      land();
      this.#evaluate(entry.pld, Date.now()); // its in-flight fetch no longer counts against its budget
    }
  }

  async #process(entry: FrontierEntry, signal: AbortSignal | undefined, land: () => void, probe: boolean): Promise<Outcome> {
    const t0 = performance.now();
    // Learned since it was queued that its URL pattern yields nothing (issue 16 item 5): back it goes, no fetch.
    const later = this.#strategy.reprioritise?.(entry) ?? null;
    if (later !== null) {
      const txn = this.state.txn();
      this.#frontier.retry({ ...entry, priority: later, rules: [...entry.rules, BARREN_RULE], attempts: entry.attempts - 1 }, 0, txn);
      await txn.commit();
      return { kind: 'retry' };
    }
    const result = await this.#fetch(entry, signal);
    if (signal?.aborted) return { kind: 'aborted' };
    if (this.#observeConnectivity(entry, result, probe)) {
      // Failed while the network is down: not the URL's fault. Back in the queue until the pause ends, no attempt spent.
      const txn = this.state.txn();
      this.#frontier.retry({ ...entry, attempts: entry.attempts - 1 }, this.#outage.pausedUntil, txn);
      await txn.commit();
      return { kind: 'retry' };
    }
    if (this.#shouldRetry(entry, result)) {
      const waitMs = retryDelay(result, entry.attempts, this.options.delayMs);
      // Rate limits and connection failures back the whole PLD off: its other URLs would meet the same.
      const connection = result.kind === 'failed' && result.connection === true;
      if ((result.kind === 'http-error' && result.retryAfterMs !== null) || connection) this.#politeness.backoff(entry.pld, Date.now() + waitMs);
      const txn = this.state.txn();
      this.#frontier.retry(entry, Date.now() + waitMs, txn);
      await txn.commit();
      this.#evaluate(entry.pld, Date.now());
      return { kind: 'retry' };
    }

    const txn = this.state.txn();
    const doc = await analyseDocument(result, entry.link, this.options);
    const stored = await this.#stageDocument(entry, result, doc, txn);
    const { entries, external, notQueued } = this.#judgeLinks(entry, result, doc);
    // BeeBot's tables (BeeBot §2): internal and external links of every HTML page, with anchor and context.
    if (this.options.linkTables && doc.detectedType === 'html') {
      stageLinkTables(this.state, txn, { url: result.finalUrl, site: entry.pld, level: entry.depth }, doc.links, (u) => pldOf(u) === entry.pld, notQueued);
    }

    this.#seq += 1;
    const record: CrawlRecord = {
      seq: this.#seq,
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
      triples: stored.triples,
      linksQueued: await this.#frontier.add(entries, txn),
      error: doc.error,
      errorMessage: stored.note ?? doc.errorMessage,
      label: entry.label,
      rules: entry.rules,
      redirects: result.redirects,
      ms: Math.round(performance.now() - t0),
      fetchedAt: new Date().toISOString(),
    };
    await this.#stageRecord(entry, result, record, doc, external, txn);
    land();
    this.#tally.add(record);
    await txn.commit();
    // What the commit changed: this PLD's queue and budget, and the PLDs that got new links.
    const now = Date.now();
    this.#evaluate(entry.pld, now);
    let last = entry.pld;
    for (const e of entries) {
      const pld = pldOf(e.url);
      if (pld !== last) this.#evaluate(pld, now);
      last = pld;
    }
    if (chRecord.hasSubscribers) chRecord.publish(record);
    await this.#afterCommit(entry, result);
    return { kind: 'recorded', record };
  }

  /**
   * Tells the outage detector how a fetch went; true when it failed at the connection level while the crawl is
   * paused (then it is requeued as it was). Reports pauses and resumptions (`onOutage`, `rdfscout:crawl:outage`).
   */
  #observeConnectivity(entry: FrontierEntry, result: FetchResult, probe: boolean): boolean {
    const connectionFailure = result.kind === 'failed' && result.connection === true;
    const activeHosts = connectionFailure ? this.#frontier.queues().length : 0;
    const event = this.#outage.observe({ host: hostOf(entry.url), connectionFailure, probe, activeHosts }, Date.now());
    if (event !== null) {
      if (chOutage.hasSubscribers) chOutage.publish(event);
      this.#onOutage?.(event);
      this.#evaluateAll(Date.now());
    }
    return connectionFailure && this.#outage.offline;
  }

  /** Fetches under politeness (one PLD's delay and concurrency), reading the body if the strategy wants it. */
  async #fetch(entry: FrontierEntry, signal: AbortSignal | undefined): Promise<FetchResult> {
    this.#politeness.start(entry.pld, entry.pld, Date.now());
    try {
      return await this.#fetcher.fetch(entry.url, {
        // The same for every strategy (issue 16 item 4): strategies differ in order, not in what they read.
        read: (head) => isSitemapLink(entry.link) || worthReading(head.contentType, head.url),
        ...(signal ? { signal } : {}),
        ...(isHtmlVariant(entry.url) ? { accept: HTML_VARIANT_ACCEPT } : {}),
      });
    } finally {
      this.#politeness.finish(entry.pld, entry.pld, Date.now());
      // robots.txt is per host (RFC 9309): its Crawl-delay is the host's, and the PLD waits for the slowest of its hosts.
      this.#politeness.setCrawlDelay(hostOf(entry.url), this.#fetcher.crawlDelayMs(entry.url), entry.pld);
      this.#evaluate(entry.pld, Date.now());
    }
  }

  /**
   * Stages the document's quads (all or nothing), unless its final URL is stored already (a duplicate reached by
   * another URL: one document, one graph); the partial output of a document that failed to parse goes apart.
   */
  /**
   * Whether the graph `finalUrl` is stored already (the caller has checked and reserved it in `#storing`). A URL fetched as itself
   * (no redirect) from the one-queue frontier cannot be: the frontier hands a URL out once, and a document stored
   * under it by another fetch marks it done in the same transaction, so only a fetch in flight can race it. Other
   * cases ask the store (one index seek; 3% of a crawl's CPU when asked for every document).
   */
  async #storedAlready(entry: FrontierEntry, finalUrl: string): Promise<boolean> {
    if (finalUrl === entry.url && this.options.queues === 'one') return false;
    return hasGraph(this.state, finalUrl);
  }

  async #stageDocument(entry: FrontierEntry, result: FetchResult, doc: DocumentAnalysis, txn: Txn): Promise<{ triples: number; note: string | null }> {
    for (const dump of doc.voidPoints.dumps) txn.put(this.state.sub.meta, `void!dump!${dump}`, { url: dump, foundIn: result.finalUrl });
    for (const ep of doc.voidPoints.endpoints) txn.put(this.state.sub.meta, `void!endpoint!${ep}`, { url: ep, foundIn: result.finalUrl });
    if (doc.quads.length === 0) {
      if (doc.partial.length > 0 && doc.error !== null) {
        stagePartial(this.state, txn, result.finalUrl, { error: { code: doc.error, message: doc.errorMessage ?? '' }, quads: doc.partial });
      }
      return { triples: 0, note: null };
    }
    // Reserve the graph before asking the store: two fetches redirected to one URL must not both pass the check.
    if (this.#storing.has(result.finalUrl)) return { triples: 0, note: `duplicate: ${result.finalUrl} is already stored` };
    this.#storing.add(result.finalUrl);
    let already: boolean;
    try {
      already = await this.#storedAlready(entry, result.finalUrl);
    } catch (err) {
      this.#storing.delete(result.finalUrl);
      throw err;
    }
    if (already) {
      this.#storing.delete(result.finalUrl);
      return { triples: 0, note: `duplicate: ${result.finalUrl} is already stored` };
    }
    const triples = stageDocument(this.state, txn, result.finalUrl, doc.quads);
    txn.onCommit(() => this.#storing.delete(result.finalUrl));
    chDocument.publish({ url: result.finalUrl, triples });
    return { triples, note: null };
  }

  /**
   * The links to queue (thesis §6: judged by the strategy, inside the crawl's scope, issue 16 item 1), plus sitemap
   * files queued as they are; the count of links to other PLDs (BeeBot's reward); and why each other link was not
   * queued (`links` shows it).
   */
  #judgeLinks(entry: FrontierEntry, result: FetchResult, doc: DocumentAnalysis): { entries: NewEntry[]; external: number; notQueued: Map<string, string> } {
    const depth = entry.depth + 1;
    const entries: NewEntry[] = [];
    const notQueued = new Map<string, string>();
    const parentHops = hopsOf(entry, this.#seedPlds);
    // Sitemaps of a seed's origin (named by robots.txt, or probed), and sitemap files listed by a sitemap index.
    const direct = [...doc.sitemaps];
    if (entry.parent === null && entry.link === null) {
      direct.push(...originProbes(entry.url, this.#fetcher.sitemapsOf(entry.url), this.options.probeWellKnown));
    }
    for (const link of direct) {
      const v = judgeScope(link.url, parentHops, this.#scope);
      if (!v.ok) continue;
      entries.push({ url: link.url, parent: result.finalUrl, depth, priority: this.#strategy.seedPriority + 0.5, label: null, rules: [link.rel], link, offsiteHops: v.hops });
    }
    let external = 0;
    const inScope: Array<{ link: LinkFeatures; hops: number }> = [];
    for (const link of doc.links) {
      const offSite = pldOf(link.url) !== entry.pld;
      if (offSite) external += 1;
      if (depth > this.options.maxDepth) {
        notQueued.set(link.url, 'depth');
        this.#depthDropped += 1; // tells a depth-limited stop from an empty frontier (stoppedBy)
      } else if (offSite && this.options.stayOnSite) notQueued.set(link.url, 'stay-on-site'); // BeeBot: recorded, not crawled
      else {
        const v = judgeScope(link.url, parentHops, this.#scope);
        if (v.ok) inScope.push({ link, hops: v.hops });
        else notQueued.set(link.url, v.reason);
      }
    }
    // Issue 17 item 3: the HTML variant of a resource that negotiated to RDF, for strategies that judge it.
    const negotiated = this.#strategy.followsHtmlVariants && doc.detectedType === 'rdf' ? negotiatedResource(entry.url, result.redirects) : null;
    if (negotiated !== null && depth <= this.options.maxDepth) {
      const v = judgeScope(negotiated, parentHops, this.#scope);
      if (v.ok) inScope.push({ link: htmlVariantLink(negotiated), hops: v.hops });
    }
    if (this.#strategy.observePage && doc.detectedType !== null && depth <= this.options.maxDepth) {
      this.#strategy.observePage({ url: result.finalUrl, depth: entry.depth, type: doc.detectedType, text: doc.text, links: inScope.map((l) => l.link) });
    }
    const source = { url: result.finalUrl, depth: entry.depth, type: doc.linkSource };
    for (const { link, hops } of inScope) {
      const j = this.#strategy.judge(link, source);
      if (j.priority === null) {
        notQueued.set(link.url, 'filtered');
        continue;
      }
      entries.push({ url: link.url, parent: result.finalUrl, depth, priority: j.priority, label: j.label, rules: j.rules, link, offsiteHops: hops });
      if (j.label === 'H' && this.#rejudge) this.#similar.add({ url: link.url, link, parent: result.finalUrl, depth, priority: j.priority, source });
    }
    return { entries, external, notQueued };
  }

  /** Stages the record and what follows from it: crawl metadata, bad links, redirects, frontier, learning, bandit. */
  async #stageRecord(entry: FrontierEntry, result: FetchResult, record: CrawlRecord, doc: DocumentAnalysis, external: number, txn: Txn): Promise<void> {
    stageRecordWrite(this.state, txn, record); // the crawl graph (CRAWL_GRAPH) is a view over the records
    for (const [i, b] of doc.bad.entries()) txn.put(this.state.sub.badlinks, `${recordKey(record.seq)}!${i}`, b);
    for (const hop of result.redirects) txn.put(this.state.sub.redirects, hop.from, hop);
    const aliases = [result.finalUrl, ...result.redirects.map((h) => h.to)].filter((u) => u !== entry.url);
    this.#frontier.complete(entry, txn, aliases);

    const learned = toFetchedDocument(record);
    this.#strategy.learn(learned);
    if (learned.type === 'rdf' && learned.parent !== null && this.#rejudge) await this.#rejudgeSimilarTo(learned.parent, txn);
    if (this.#strategy.observePage && snapshotDue(record.seq, this.#lastSnapshotSeq)) {
      this.#lastSnapshotSeq = record.seq;
      txn.put(this.state.sub.learned, 'strategy', { seq: record.seq, state: this.#strategy.snapshot() });
    }
    if (this.#policy) {
      this.#policy.update(entry.pld, rewardOf(this.options.reward, record, external));
      stageBanditChanges(this.state, txn, this.#policy);
    }
  }

  /** Takes the operator's new seeds (queued like seeds given at the start, their PLDs in scope) and blocked PLDs. */
  async #applyControl(control: CrawlControl): Promise<void> {
    const { seeds, blocked } = control.take();
    const now = Date.now();
    for (const pld of blocked) {
      this.#ready.place(pld, null, now);
      this.#policy?.retire(pld);
    }
    if (seeds.length === 0) return;
    const entries: NewEntry[] = seeds.map((url) => {
      this.#seedPlds.add(pldOf(url));
      return { url, parent: null, depth: 0, priority: this.#strategy.seedPriority, label: null, rules: [], link: null };
    });
    const txn = this.state.txn();
    txn.put(this.state.sub.meta, 'seedPlds', [...this.#seedPlds]);
    await this.#frontier.add(entries, txn);
    await txn.commit();
    for (const e of entries) this.#evaluate(pldOf(e.url), now);
  }

  /** The live view a dashboard reads (CrawlView): cheap, synchronous reads of in-memory state. */
  #view(): CrawlView {
    return {
      tally: () => this.#tally,
      queued: () => this.#frontier.size().queued,
      inFlight: () => this.#inFlight,
      maxDocs: () => this.options.maxDocs,
      plds: (now) =>
        this.#frontier.queues().map((q) => {
          const at = this.#politeness.readyAt(q.pld, q.pld, now);
          return {
            pld: q.pld,
            queued: q.queued,
            inFlight: this.#inFlightPerPld.get(q.pld) ?? 0,
            nextAllowedAt: Number.isFinite(at) ? at : null,
            robotsDelayMs: this.#politeness.crawlDelayOf(q.pld),
            blocked: this.#control?.isBlocked(q.pld) ?? false,
          };
        }),
      arms: () => this.#policy?.stats() ?? null,
      learned: () => this.#strategy.snapshot(),
    };
  }

  /** Bandit bookkeeping once a fetch is committed: PLDs out of work retire; BeeBot's Not Available sites too. */
  async #afterCommit(entry: FrontierEntry, result: FetchResult): Promise<void> {
    const { pld } = entry;
    let retired = false;
    // A PLD with nothing queued or in flight leaves the bandit's game (it comes back if new links for it appear).
    if (this.#policy && this.#frontier.queueOf(pld) === null) {
      this.#policy.retire(pld);
      retired = true;
    }
    // BeeBot mode: a site whose start page cannot be fetched is Not Available and leaves the game (BeeBot §2).
    if (this.options.stayOnSite && entry.parent === null && entry.link === null && result.kind !== 'ok' && result.kind !== 'skipped') {
      this.#unavailable.add(pld);
      this.#ready.place(pld, null, Date.now());
      this.#policy?.retire(pld);
      retired = true;
      await markNotAvailable(this.state, pld);
    }
    // The changes staged with the record predate the retirement: save it too, so a resume sees it.
    if (retired && this.#policy) await this.#saveBandit();
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
      if (this.#strategy.rejudgesRepeatedly) q.priority = j.priority; // it may become more urgent again (issue 17)
      else this.#similar.delete(q.url);
    }
    if (upgrades.length > 0) await this.#frontier.add(upgrades, txn);
  }

  async #saveBandit(): Promise<void> {
    const txn = this.state.txn();
    stageBanditChanges(this.state, txn, this.#policy as BanditPolicy);
    await txn.commit();
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
    if (this.#policy) await this.#saveBandit();
    if (this.#strategy.observePage) await this.state.sub.learned.put('strategy', { seq: this.#seq, state: this.#strategy.snapshot() });
  }
}

export { CRAWL_GRAPH };

/** Back-off before a retry: the server's Retry-After, else exponential; never before a robots.txt will be asked for again. */
function retryDelay(result: FetchResult, attempts: number, delayMs: number): number {
  if (result.kind === 'http-error' && result.retryAfterMs !== null) return Math.min(result.retryAfterMs, 600_000);
  const backoff = Math.max(delayMs, 500) * 2 ** attempts;
  return result.kind === 'failed' && result.retryAfterMs != null ? Math.max(backoff, Math.min(result.retryAfterMs, 600_000)) : backoff;
}

/** Sleeps until `when` or an abort; with a control, also until the operator's next command (listener removed after). */
async function idleUntil(when: number, signal: AbortSignal, control: CrawlControl | null): Promise<void> {
  if (control === null) return sleepUntil(when, signal);
  const idle = new AbortController();
  const wake = () => idle.abort(WAKE);
  signal.addEventListener('abort', wake, { once: true });
  const off = control.onChange(wake);
  try {
    await sleepUntil(when, idle.signal);
  } finally {
    off();
    signal.removeEventListener('abort', wake);
  }
}

async function sleepUntil(when: number, signal: AbortSignal): Promise<void> {
  const ms = Math.max(0, when - Date.now());
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // aborted: the caller checks the signal
  }
}
