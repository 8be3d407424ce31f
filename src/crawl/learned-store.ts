// **learned-store**: what a crawl has learned, in the crawl store: the bandit's state (a small head in `learned` and one
// entry per arm in `bandit-arms`, written as changes with every fetch) and the strategy's snapshot (`learned`).
import type { BanditPolicy } from '../bandit/index.ts';
import { joinSnapshot } from '../bandit/index.ts';
import type { CrawlState } from '../state/open-state.ts';
import { type Txn, levelTxn } from '../state/txn.ts';

/**
 * Saves the policy's changes in `txn`, taken when the batch is written (Txn.beforeWrite): transactions commit
 * in order, so each save builds on the one before and the store always holds a state the policy was in.
 */
export function stageBanditChanges(state: CrawlState, txn: Txn, policy: BanditPolicy): void {
  txn.beforeWrite(() => {
    const { head, arms } = policy.changes();
    levelTxn(txn).put(state.sub.learned, 'bandit', head);
    for (const arm of arms) levelTxn(txn).put(state.sub['bandit-arms'], arm.arm, arm);
  });
}

/** The saved snapshot (head and arms joined), or undefined when the crawl has none. */
export async function loadBanditSnapshot(state: CrawlState): Promise<unknown> {
  const head = (await state.sub.learned.get('bandit')) as unknown;
  if (head === undefined) return undefined;
  const arms: unknown[] = [];
  for await (const value of state.sub['bandit-arms'].values()) arms.push(value);
  return joinSnapshot(head, arms);
}

/** A strategy's saved state and the seq of the last record it had learned from. */
export interface StrategySnapshot {
  seq: number;
  state: unknown;
}

/** Stages the strategy's snapshot in `txn`. */
export function stageStrategySnapshot(state: CrawlState, txn: Txn, snapshot: StrategySnapshot): void {
  levelTxn(txn).put(state.sub.learned, 'strategy', snapshot);
}

/** Writes the strategy's snapshot at once (at a clean stop). */
export async function saveStrategySnapshot(state: CrawlState, snapshot: StrategySnapshot): Promise<void> {
  await state.sub.learned.put('strategy', snapshot);
}

/** The strategy's last snapshot, or undefined when none was saved. */
export async function loadStrategySnapshot(state: CrawlState): Promise<StrategySnapshot | undefined> {
  return (await state.sub.learned.get('strategy')) as StrategySnapshot | undefined;
}
