// The Frontier contract, run against LevelFrontier (default head buffers, and tiny ones that refill all the time).
import { describe } from 'vitest';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import { runFrontierContract } from './frontier-contract.ts';
import { tempState } from './helpers.ts';

describe('LevelFrontier', () => {
  runFrontierContract(async ({ now }) => {
    const { state, dispose } = await tempState();
    return { frontier: await LevelFrontier.open(state, { now }), txn: () => state.txn(), close: dispose };
  });
});

describe('LevelFrontier with 2-entry head buffers', () => {
  runFrontierContract(async ({ now }) => {
    const { state, dispose } = await tempState();
    return { frontier: await LevelFrontier.open(state, { now, headSize: 2 }), txn: () => state.txn(), close: dispose };
  });
});
