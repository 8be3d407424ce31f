// Every strategy reads the same documents, only the order differs: JSON-LD served as
// application/json, Turtle as text/plain, RDF/XML as application/xml (an N link the focused crawlers now queue last);
// binary types are read by none.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { worthReading } from '../../src/rdf/sniff.ts';
import { crawlRecords } from '../helpers/crawl-records.ts';
import { linkPage, type ProxyWeb, startProxyWeb } from '../helpers/proxy-web.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const SITE = 'http://lod.example';
const JSONLD = JSON.stringify({ '@context': { '@vocab': 'http://schema.org/' }, '@id': `${SITE}/thing`, '@type': 'Thing', name: 'A thing' });
const TTL = `<${SITE}/s> <http://purl.org/dc/terms/title> "plain" .\n<${SITE}/s> <http://purl.org/dc/terms/creator> "me" .\n`;
const RDFXML = `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Description rdf:about="${SITE}/x"><dc:title>X</dc:title></rdf:Description></rdf:RDF>`;

let web: ProxyWeb;
let dir: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  web = await startProxyWeb({
    [`${SITE}/`]: linkPage('Home', ['/api/thing', '/dump.txt', '/data/plain', '/export.xml', '/pic', '/notes.pdf']),
    [`${SITE}/api/thing`]: { type: 'application/json', body: JSONLD },
    [`${SITE}/dump.txt`]: { type: 'text/plain', body: TTL },
    [`${SITE}/data/plain`]: { type: 'text/plain; charset=utf-8', body: TTL.replaceAll('/s>', '/t>') },
    [`${SITE}/export.xml`]: { type: 'application/xml', body: RDFXML },
    [`${SITE}/pic`]: { type: 'image/png', body: '\x89PNG\r\n\x1a\n' },
    [`${SITE}/notes.pdf`]: { type: 'application/pdf', body: '%PDF-1.4' },
  });
  dir = folder.dir;
});
afterAll(async () => {
  await web.close();
});

function crawlWith(strategy: string, seeds = [`${SITE}/`]): Promise<CrawlRecord[]> {
  const out = join(dir, `${strategy}-${new URL(seeds[0] as string).pathname.replaceAll('/', '_')}`);
  return crawlRecords({ out, seeds, strategy, delayMs: 0, proxy: web.proxy });
}

const view = (records: CrawlRecord[]) =>
  records.map((r) => [r.url.slice(SITE.length), r.outcome, r.detectedType, r.triples] as const).sort((a, b) => a[0].localeCompare(b[0]));

describe('the same documents for every strategy', () => {
  it('bfs and fc-r+hr read and store the same documents, RDF behind misleading types included', async () => {
    const bfs = view(await crawlWith('bfs'));
    const focused = view(await crawlWith('fc-r+hr'));
    expect(bfs).toEqual(focused);
    expect(bfs).toEqual([
      ['/', 'ok', 'html', 0],
      ['/api/thing', 'ok', 'rdf', 2],
      ['/data/plain', 'ok', 'rdf', 2],
      ['/export.xml', 'ok', 'rdf', 1],
      ['/pic', 'skipped', null, 0],
      // /dump.txt and /notes.pdf: dropped by every strategy alike, by the link filter NF (thesis §7 step 3a)
    ]);
  });

  it('a .txt document that is fetched (here a seed) is sniffed as Turtle and stored, by bfs as by fc-r+hr', async () => {
    for (const strategy of ['bfs', 'fc-r+hr']) {
      const records = await crawlWith(strategy, [`${SITE}/dump.txt`]);
      expect(view(records), strategy).toEqual([['/dump.txt', 'ok', 'rdf', 2]]);
    }
  });

  it('worthReading: text, JSON and XML flavours, RDF types and extensions yes; binary types no', () => {
    for (const t of ['text/plain', 'application/json', 'application/ld+json', 'application/xml', 'application/atom+xml', 'text/html', null, 'application/x-custom']) {
      expect(worthReading(t, 'http://a.org/x'), String(t)).toBe(true);
    }
    for (const t of ['image/png', 'application/pdf', 'application/zip', 'video/mp4', 'font/woff2', 'application/octet-stream']) {
      expect(worthReading(t, 'http://a.org/x'), t).toBe(false);
    }
    expect(worthReading('application/octet-stream', 'http://a.org/data.ttl')).toBe(true);
  });
});
