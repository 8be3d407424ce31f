// The Frontier contract, run against the in-memory reference implementation.
import { describe } from 'vitest';
import { MemoryFrontier } from '../../src/frontier/memory-frontier.ts';
import { runFrontierContract } from './frontier-contract.ts';
import { tempState } from './helpers.ts';

describe('MemoryFrontier', () => {
  runFrontierContract(async ({ now, rejudge }) => {
    // Txn needs a store to commit into (nothing is written to it).
    const { state, dispose } = await tempState();
    return { frontier: new MemoryFrontier({ now, rejudge }), txn: () => state.txn(), close: dispose };
  });
});
