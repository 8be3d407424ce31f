// A flat Linked-Data namespace (`/id/<name>` resources linked only from each other's RDF): `followRdfLinks` (thesis
// §8.2, framework 2) finds every resource reachable within the crawl's scope; the default (framework 1, kept by
// npm run bench:real and the thesis-like simulated web) finds the seed alone.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CRAWL_OPTIONS } from '../../src/crawl/options.ts';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { type ProxyWeb, startProxyWeb, type WebPage } from '../helpers/proxy-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const ID = 'http://data.example.org/id/';
const ELSEWHERE = 'http://elsewhere.example.com/id/z';

/** `/id/<name>` as Turtle: a label, and `knows` links to the other names (IRIs only: no HTML anywhere). */
function resource(name: string, knows: readonly string[], extra = ''): WebPage {
  const links = knows.map((k) => `<${ID}${name}> <http://xmlns.com/foaf/0.1/knows> <${k.startsWith('http') ? k : ID + k}> .`).join('\n');
  return { type: 'text/turtle', body: `<${ID}${name}> <http://www.w3.org/2000/01/rdf-schema#label> "${name}" .\n${links}\n${extra}` };
}

describe('following IRIs inside RDF documents on a flat /id/ namespace', () => {
  let web: ProxyWeb;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    web = await startProxyWeb({
      [`${ID}a`]: resource('a', ['b', 'c']),
      [`${ID}b`]: resource('b', ['d']),
      [`${ID}c`]: resource('c', ['a', 'e']),
      [`${ID}d`]: resource('d', [ELSEWHERE]),
      [`${ID}e`]: resource('e', [], `<${ID}e> <http://www.w3.org/2002/07/owl#sameAs> <${ELSEWHERE}> .\n`),
      [ELSEWHERE]: resource('z', []),
    });
    dir = folder.dir;
  });
  afterAll(async () => {
    await web.close();
  });
  const rdfUrls = async (name: string, options: { followRdfLinks?: boolean }) => {
    const records = await crawlRecords({ seeds: [`${ID}a`], out: join(dir, name), proxy: web.proxy, delayMs: 0, ...options });
    return records.filter((r) => r.detectedType === 'rdf' && r.triples > 0).map((r) => r.url).sort();
  };

  it('followRdfLinks finds every /id/ resource reachable from the seed through RDF, and nothing on another PLD', async () => {
    expect(await rdfUrls('on', { followRdfLinks: true })).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => ID + n));
    expect(web.fetched()).not.toContain(ELSEWHERE); // scope: the seeds' PLD only (offsiteHops 0)
  });

  it('the default (off) finds the seed alone', async () => {
    expect(DEFAULT_CRAWL_OPTIONS.followRdfLinks).toBe(false);
    expect(await rdfUrls('default', {})).toEqual([`${ID}a`]);
  });
});
