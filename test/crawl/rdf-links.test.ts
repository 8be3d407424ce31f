// Framework 2 (thesis §8.2): IRIs inside RDF documents become links; and the well-known probes.
import { join } from 'node:path';
import { DataFactory } from 'rdf-data-factory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdfLinkCollector, rdfLinksOf } from '../../src/crawl/rdf-links.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { runCliOk } from '../helpers/run-cli.ts';

const df = new DataFactory();

describe('rdfLinksOf', () => {
  it('skips blank-node labels an RDFa parser resolved as relative IRIs (`href="_:b4999"`, issue 16 item 5)', () => {
    const doc = 'http://e.org/page';
    const quads = [df.quad(df.namedNode(doc), df.namedNode('http://schema.org/about'), df.namedNode('http://e.org/_:b4999')), df.quad(df.namedNode(doc), df.namedNode('http://schema.org/about'), df.namedNode('http://e.org/real'))];
    expect(rdfLinksOf(quads, doc, 10).map((l) => l.url)).toEqual(['http://e.org/real']);
  });
  it('lists http(s) subjects and objects once, seeAlso/sameAs/isDefinedBy/imports first, fragments dropped', () => {
    const doc = 'http://e.org/a.ttl';
    const q = (s: string, p: string, o: string) => df.quad(df.namedNode(s), df.namedNode(p), df.namedNode(o));
    const quads = [
      q(`${doc}#me`, 'http://xmlns.com/foaf/0.1/knows', 'http://e.org/b.ttl#me'),
      q(`${doc}#me`, 'http://www.w3.org/2000/01/rdf-schema#seeAlso', 'http://e.org/more.rdf'),
      q(`${doc}#me`, 'http://xmlns.com/foaf/0.1/mbox', 'mailto:a@e.org'),
      q('http://e.org/c', 'http://www.w3.org/2002/07/owl#sameAs', 'http://e.org/b.ttl#other'),
    ];
    expect(rdfLinksOf(quads, doc, 10).map((l) => [l.url, l.tag, l.rel])).toEqual([
      ['http://e.org/more.rdf', 'rdf', 'http://www.w3.org/2000/01/rdf-schema#seeAlso'],
      ['http://e.org/b.ttl', 'rdf', 'http://xmlns.com/foaf/0.1/knows'],
      ['http://e.org/c', 'rdf', 'http://www.w3.org/2002/07/owl#sameAs'],
    ]);
    expect(rdfLinksOf(quads, doc, 1)).toHaveLength(1);
  });
  it('counts the distinct IRIs past the cap (beyond), up to maxBeyond; an IRI past the rest\'s share still comes in as a preferred object', () => {
    const doc = 'http://e.org/a.ttl';
    const q = (s: string, p: string, o: string) => df.quad(df.namedNode(s), df.namedNode(p), df.namedNode(o));
    const knows = 'http://xmlns.com/foaf/0.1/knows';
    const seeAlso = 'http://www.w3.org/2000/01/rdf-schema#seeAlso';
    const quads = [
      ...[1, 2, 3, 4, 5].map((i) => q(`${doc}#me`, knows, `http://e.org/p${i}#x`)),
      q(`${doc}#me`, knows, 'http://e.org/p5'), // the same link again
      q(`${doc}#me`, seeAlso, 'http://e.org/p4'), // past the rest's share, kept as a preferred link
    ];
    const c = new RdfLinkCollector(doc, 2);
    for (const x of quads) c.add(x);
    expect(c.links().map((l) => l.url)).toEqual(['http://e.org/p4', 'http://e.org/p1']);
    expect(c.beyond()).toBe(3); // p2, p3, p5
    const bounded = new RdfLinkCollector(doc, 2, 1);
    for (const x of quads) bounded.add(x);
    expect(bounded.links()).toEqual(c.links());
    expect(bounded.beyond()).toBe(1);
    expect(rdfLinksOf(quads, doc, 10)).toHaveLength(5);
    const all = new RdfLinkCollector(doc, 10);
    for (const x of quads) all.add(x);
    expect(all.beyond()).toBe(0);
  });
});

describe('crawling from an RDF seed', () => {
  let site: TinySite;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startTinySite();
    dir = folder.dir;
  });
  afterAll(async () => {
    await site.close();
  });
  const crawl = async (name: string, extra: string[]) => {
    const { stdout } = await runCliOk(['crawl', ...extra, '--out', join(dir, name), '--allow-private', '--delay-ms', '0', '--json', '--quiet']);
    const docs = (await runCliOk(['docs', join(dir, name)])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string; rules: string[]; detectedType: string | null; label: string | null });
    return { summary: JSON.parse(stdout) as { rdfDocuments: number }, docs };
  };

  it('--follow-rdf-links follows foaf:knows from alice.ttl to bob.ttl (labelled R by extension)', async () => {
    const without = await crawl('without', [`${site.base}/foaf/alice.ttl`]);
    // (the seed's robots.txt names a sitemap, so that is crawled too; but nothing inside the RDF is followed)
    expect(without.docs.map((d) => d.url)).not.toContain(`${site.base}/foaf/bob.ttl`);
    const withLinks = await crawl('with', [`${site.base}/foaf/alice.ttl`, '--follow-rdf-links']);
    const bob = withLinks.docs.find((d) => d.url === `${site.base}/foaf/bob.ttl`);
    expect(bob).toMatchObject({ detectedType: 'rdf', label: 'R' });
    expect(withLinks.summary.rdfDocuments).toBe(without.summary.rdfDocuments + 1); // bob.ttl
  });

  it('--probe-well-known fetches /.well-known/void and records its endpoint', async () => {
    const probed = await crawl('probe', [`${site.base}/people/bob.html`, '--probe-well-known', '--max-docs', '5']);
    expect(probed.docs.find((d) => d.url === `${site.base}/.well-known/void`)).toMatchObject({ detectedType: 'rdf', rules: ['void'] });
    const stats = JSON.parse((await runCliOk(['stats', join(dir, 'probe'), '--json'])).stdout) as { void: { endpoints: Array<{ url: string }> } };
    expect(stats.void.endpoints.map((e) => e.url)).toContain('http://sparql.example.org/well-known');
  });
});
