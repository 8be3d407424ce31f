// The Frontier contract, run against LevelFrontier (default head buffers, and tiny ones that refill all the time).
import { describe } from 'vitest';
import { LevelFrontier } from '../../src/frontier/level-frontier.ts';
import { runFrontierContract } from './frontier-contract.ts';
import { holdSeenReads, tempState } from './helpers.ts';

describe('LevelFrontier', () => {
  runFrontierContract(async ({ now, rejudge }) => {
    const { state, dispose } = await tempState();
    return { frontier: await LevelFrontier.open(state, { now, rejudge }), txn: () => state.txn(), close: dispose, holdReads: holdSeenReads(state) };
  });
});

describe('LevelFrontier with 2-entry head buffers', () => {
  runFrontierContract(async ({ now, rejudge }) => {
    const { state, dispose } = await tempState();
    return { frontier: await LevelFrontier.open(state, { now, headSize: 2, rejudge }), txn: () => state.txn(), close: dispose, holdReads: holdSeenReads(state) };
  });
});
