// The same seed gives the same web, byte for byte; another seed gives another.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimWeb, startSimweb, truthLines } from '../../src/simweb/index.ts';
import { proxyGet } from './helpers.ts';

function digest(lines: Iterable<string>): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(`${l}\n`);
  return h.digest('hex');
}

describe('simweb determinism', () => {
  let a: SimWeb;
  let b: SimWeb;
  let c: SimWeb;
  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      startSimweb({ profiles: 'mixed', seed: 11, scale: 0.05 }),
      startSimweb({ profiles: 'mixed', seed: 11, scale: 0.05 }),
      startSimweb({ profiles: 'mixed', seed: 12, scale: 0.05 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), c?.close()]);
  });

  it('gives identical truth for the same seed and different truth for another', () => {
    expect(digest(truthLines(a.model))).toBe(digest(truthLines(b.model)));
    expect(digest(truthLines(a.model))).not.toBe(digest(truthLines(c.model)));
    expect(a.truth().length).toBeGreaterThan(1000);
  });

  it('serves byte-identical responses for the same seed', async () => {
    const truth = a.truth();
    const sample = truth.filter((_, i) => i % Math.floor(truth.length / 60) === 0).map((r) => r.url);
    sample.push(...a.sites.map((s) => `${s.startUrl}robots.txt`));
    let differentFromOtherSeed = 0;
    for (const url of sample) {
      const [x, y, z] = await Promise.all([proxyGet(a.proxyUrl, url), proxyGet(b.proxyUrl, url), proxyGet(c.proxyUrl, url)]);
      expect(x.status, url).toBe(y.status);
      expect(x.headers, url).toEqual(y.headers);
      expect(x.body.equals(y.body), url).toBe(true);
      if (z.status !== x.status || !z.body.equals(x.body)) differentFromOtherSeed++;
    }
    expect(differentFromOtherSeed).toBeGreaterThan(sample.length / 2);
  });
});
