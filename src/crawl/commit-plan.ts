// **Committer** stages a document plan into one transaction: document, record, frontier, learning, bandit — all or nothing.
import diagnostics from 'node:diagnostics_channel';
import type { BanditPolicy } from '../bandit/types.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { stageBadLinks, stageRecordWrite, stageRedirects } from '../crawl-log/record-store.ts';
import { stageVoidPoints } from '../crawl-log/void-facts.ts';
import type { Frontier } from '../frontier/types.ts';
import { DocumentWriter, hasGraph, stagePartial } from '../rdf/index.ts';
import type { Strategy } from '../relevance/types.ts';
import type { CrawlState } from '../state/open-state.ts';
import type { Txn } from '../state/txn.ts';
import { retireIfNotAvailable } from './beebot-hooks.ts';
import { saveStrategySnapshot, stageBanditChanges, stageStrategySnapshot } from './learned-store.ts';
import type { DocumentPlan } from './process-document.ts';
import { toFetchedDocument } from './restore-crawl.ts';
import { type RewardKind, rewardOf } from './reward.ts';

const chDocument = diagnostics.channel('rdfscout:document:stored');

/**
 * Strategies that learn from page text are snapshotted every max(200 records, 10% of the crawl) and at a clean
 * stop: a snapshot grows with the crawl (the topical agent's graph), so a fixed interval would make the crawl
 * quadratic in writes; a geometric one keeps the total written within ~10× the final snapshot.
 */
function snapshotDue(seq: number, lastSnapshotSeq: number): boolean {
  return seq - lastSnapshotSeq >= Math.max(200, Math.floor(seq / 10));
}

/** Extra steps a crawl mode plugs into the commit (BeeBot's link tables). */
export interface CommitHook {
  stage(plan: DocumentPlan, txn: Txn): void;
}

export interface CommitterOptions {
  state: CrawlState;
  frontier: Frontier;
  strategy: Strategy;
  policy: BanditPolicy | null;
  reward: RewardKind;
  /** Whether C_HR learning re-judges queued H links (thesis §5). */
  rejudge: boolean;
  /** Seq of the last record (the last strategy snapshot is taken as of it). */
  seq: number;
  hooks: readonly CommitHook[];
}

/**
 * Applies plans: every write of one fetch is staged in the caller's transaction, so that finishing the URL,
 * storing its document and record, queuing its links and saving what was learned become durable together.
 * In-memory learning (the strategy, the bandit) is applied while staging, as the crawl has always done.
 */
export class Committer {
  readonly #o: CommitterOptions;
  /** Final URLs of documents staged by fetches whose transaction has not committed yet. */
  readonly #storing = new Set<string>();
  #lastSnapshotSeq: number;

  constructor(o: CommitterOptions) {
    this.#o = o;
    this.#lastSnapshotSeq = o.seq;
  }

  /**
   * Whether the graph `finalUrl` is stored already, or being stored by a fetch in flight; when it is not, the graph is
   * reserved for the caller, whose plan must then store it (`stage` frees it once its transaction commits). The
   * reservation comes before the store is asked, so two fetches redirected to one URL cannot both pass. A URL
   * fetched as itself (no redirect) from the one-queue frontier cannot be stored: the frontier hands a URL out
   * once, and a document stored under it by another fetch marks it done in the same transaction. Other cases ask
   * the store (one index seek; 3% of a crawl's CPU when asked for every document).
   */
  async claimGraph(entryUrl: string, finalUrl: string, oneQueue: boolean): Promise<boolean> {
    if (this.#storing.has(finalUrl)) return true;
    this.#storing.add(finalUrl);
    let stored: boolean;
    try {
      stored = !(finalUrl === entryUrl && oneQueue) && (await hasGraph(this.#o.state, finalUrl));
    } catch (err) {
      this.#storing.delete(finalUrl);
      throw err;
    }
    if (stored) this.#storing.delete(finalUrl);
    return stored;
  }

  /**
   * Opens the store of the document `finalUrl` for a fetch about to parse it: a writer that takes its quads as they
   * are parsed (the graph reserved until the fetch's transaction commits), or null when the graph is stored already
   * or being stored by another fetch (see {@link claimGraph}).
   */
  async openDocument(entryUrl: string, finalUrl: string, oneQueue: boolean): Promise<DocumentWriter | null> {
    return (await this.claimGraph(entryUrl, finalUrl, oneQueue)) ? null : new DocumentWriter(this.#o.state, finalUrl);
  }

  /** Stages `plan` in `txn` and fills in the record's `triples` and `linksQueued`. */
  async stage(plan: DocumentPlan, txn: Txn): Promise<void> {
    const { state, frontier, strategy, policy } = this.#o;
    const { entry, record } = plan;
    stageVoidPoints(state, txn, plan.voidPoints, record.finalUrl);
    if (plan.store?.kind === 'partial') {
      stagePartial(state, txn, record.finalUrl, { error: plan.store.error, quads: plan.store.quads, count: plan.store.count });
    }
    const writer = plan.document;
    if (writer !== null) {
      // Stored with the record, or its spilled chunks deleted with it (a document that failed keeps nothing).
      if (plan.store?.kind === 'document') {
        record.triples = writer.stage(txn);
        chDocument.publish({ url: writer.graph, triples: record.triples });
      } else {
        writer.discard(txn);
      }
      txn.onCommit(() => this.#storing.delete(writer.graph));
    }
    for (const q of plan.remember) frontier.remember(q);
    for (const hook of this.#o.hooks) hook.stage(plan, txn);
    record.linksQueued = await frontier.add(plan.enqueue, txn);

    stageRecordWrite(state, txn, record); // the crawl graph (CRAWL_GRAPH) is a view over the records
    stageBadLinks(state, txn, record.seq, plan.bad);
    stageRedirects(state, txn, plan.redirects);
    frontier.complete(entry, txn, plan.aliases);

    const learned = toFetchedDocument(record);
    strategy.learn(learned);
    if (learned.type === 'rdf' && learned.parent !== null && this.#o.rejudge) {
      await frontier.rejudgeSimilarTo(learned.parent, (q) => strategy.judge(q.link, q.source), txn, { repeatedly: strategy.rejudgesRepeatedly === true });
    }
    if (strategy.observePage && snapshotDue(record.seq, this.#lastSnapshotSeq)) {
      this.#lastSnapshotSeq = record.seq;
      stageStrategySnapshot(state, txn, { seq: record.seq, state: strategy.snapshot() });
    }
    if (policy) {
      policy.update(entry.pld, rewardOf(this.#o.reward, record, plan.external));
      stageBanditChanges(state, txn, policy);
    }
  }

  /** Bandit bookkeeping once a fetch is committed: PLDs out of work retire; BeeBot's Not Available sites too. */
  async afterCommit(record: CrawlRecord, options: { stayOnSite: boolean }, exclude: (pld: string) => void): Promise<void> {
    const { frontier, policy, state } = this.#o;
    let retired = false;
    // A PLD with nothing queued or in flight leaves the bandit's game (it comes back if new links for it appear).
    if (policy && frontier.queueOf(record.pld) === null) {
      policy.retire(record.pld);
      retired = true;
    }
    // BeeBot mode: a site whose start page cannot be fetched is Not Available and leaves the game (BeeBot §2).
    if (await retireIfNotAvailable(state, options, record, exclude, policy)) retired = true;
    // The changes staged with the record predate the retirement: save it too, so a resume sees it.
    if (retired && policy) await this.#saveBandit(policy);
  }

  /** On a clean stop: the bandit's and (for text-learning strategies) the strategy's latest state, as of record `seq`. */
  async persistLearned(seq: number): Promise<void> {
    const { state, policy, strategy } = this.#o;
    if (state.db.status !== 'open') return;
    if (policy) await this.#saveBandit(policy);
    if (strategy.observePage) await saveStrategySnapshot(state, { seq, state: strategy.snapshot() });
  }

  async #saveBandit(policy: BanditPolicy): Promise<void> {
    const txn = this.#o.state.txn();
    stageBanditChanges(this.#o.state, txn, policy);
    await txn.commit();
  }
}
