// A closed query leaves the store alone: no size estimate, no LevelDB iterator after it, so its handles can close under it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GuardedSource } from '../../src/sparql/guarded-source.ts';
import { type CrawlState, openState } from '../../src/state/open-state.ts';
import { DOC1, EX, type Fixture, makeFixture } from './fixture.ts';

let fx: Fixture;
beforeAll(async () => {
  fx = await makeFixture();
  await fx.state.indexer.flush();
}, 60_000);
afterAll(async () => {
  await fx?.cleanup();
});

/** A second handle of the fixture's folder, as a query worker opens one per query. */
const workerHandle = (): Promise<CrawlState> => openState(fx.state.dir, { index: false });

it('counts nothing once the query is closed, even with its store handle closed', async () => {
  const state = await workerHandle();
  const source = new GuardedSource(state);
  const alice = state.dataFactory.namedNode(`${EX}alice`);
  expect(await source.countQuads(alice, null, null, null)).toBeGreaterThan(0);
  source.destroyAll();
  await state.close();
  // The engine still plans after a query is closed; before, this read the closed store: "Database is not open".
  await expect(source.countQuads(alice, null, null, null)).resolves.toBe(0);
  await expect(source.countQuads(null, null, null, state.dataFactory.defaultGraph())).resolves.toBe(0);
});

it('a count running when the query closes settles, and settled() waits for it', async () => {
  const state = await workerHandle();
  const source = new GuardedSource(state);
  const counting = source.countQuads(null, null, null, state.dataFactory.namedNode(DOC1));
  source.destroyAll();
  await source.settled();
  await state.close();
  expect(await counting).toBeGreaterThanOrEqual(0);
});

it('a match that is never read opens no LevelDB iterator', async () => {
  const state = await workerHandle();
  const store = state.quadstore;
  let streams = 0;
  const getStream = store.getStream.bind(store);
  store.getStream = (...args: Parameters<typeof store.getStream>) => {
    streams++;
    return getStream(...args);
  };
  const it = store.match(state.dataFactory.namedNode(`${EX}alice`));
  await new Promise((r) => setTimeout(r, 50));
  it.destroy();
  expect(streams).toBe(0);
  const read = store.match(state.dataFactory.namedNode(`${EX}alice`));
  const quads = await read.toArray();
  expect(quads.length).toBeGreaterThan(0);
  expect(streams).toBe(1);
  await state.close();
});
