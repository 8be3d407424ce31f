// JSON-LD remote contexts: shipped ones served locally, unknown ones refused without any network call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalContextLoader, listShippedContexts, parseDocument, parseEmbedded } from '../../src/rdf/index.ts';
import type { IJsonLdContext } from 'jsonld-context-parser';
import type { RemoteContexts } from '../../src/rdf/context-loader.ts';
import { startHttpServer } from '../helpers/http-server.ts';
import { fixture, startCountingServer } from './helpers.ts';

let server: Awaited<ReturnType<typeof startCountingServer>>;
beforeAll(async () => {
  server = await startCountingServer();
});
afterAll(async () => {
  await server.close();
});

describe('JSON-LD contexts', () => {
  it('an unknown remote context is an RDFSCOUT_REMOTE_CONTEXT error on the document and the server gets zero hits', async () => {
    const url = `http://127.0.0.1:${server.port}/context.jsonld`;
    const text = fixture('remote-context.jsonld').replace('http://127.0.0.1:PORT/context.jsonld', url);
    const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'application/ld+json' }, 'http://x.example/doc');
    expect(doc.quads).toEqual([]);
    expect(doc.error?.code).toBe('RDFSCOUT_REMOTE_CONTEXT');
    expect(doc.error?.message).toContain(url);
    expect(server.hits()).toBe(0);
  });

  it('a remote context inside an HTML script fails that block only, with zero hits', async () => {
    const html = `<script type="application/ld+json">{"@context": "http://127.0.0.1:${server.port}/c", "name": "x"}</script>
      <script type="application/ld+json">{"@context": "https://schema.org", "@id": "http://a.org/x", "name": "X"}</script>`;
    const doc = await parseEmbedded(html, 'http://x.example/page');
    expect(doc.problems).toMatchObject([{ code: 'RDFSCOUT_REMOTE_CONTEXT', source: 'jsonld#1' }]);
    expect(doc.quads.map((q) => q.object.value)).toEqual(['X']);
    expect(server.hits()).toBe(0);
  });

  it('@import and scoped remote contexts are refused too', async () => {
    const text = `{"@context": {"@import": "http://127.0.0.1:${server.port}/imp", "@vocab": "http://a.org/"}, "@id": "http://a.org/x", "p": 1}`;
    const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'application/ld+json' }, 'http://x.example/doc');
    expect(doc.error?.code).toBe('RDFSCOUT_REMOTE_CONTEXT');
    expect(server.hits()).toBe(0);
  });

  it.each(['http://schema.org', 'http://schema.org/', 'https://schema.org', 'https://schema.org/'])('ships schema.org as %s', async (url) => {
    expect(listShippedContexts().has(url)).toBe(true);
    const text = JSON.stringify({ '@context': url, '@id': 'http://a.org/x', '@type': 'Person', image: 'http://a.org/x.png' });
    const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'application/ld+json' }, 'http://x.example/doc');
    expect(doc.error).toBeNull();
    const image = doc.quads.find((q) => q.predicate.value === 'http://schema.org/image')!;
    expect(image.object.termType).toBe('NamedNode');
    expect(doc.quads.find((q) => q.predicate.value.endsWith('#type'))?.object.value).toBe('http://schema.org/Person');
  });

  it('the loader refuses without fetching and remembers what it refused', async () => {
    const loader = new LocalContextLoader();
    await expect(loader.load(`http://127.0.0.1:${server.port}/x#frag`)).rejects.toMatchObject({ code: 'RDFSCOUT_REMOTE_CONTEXT' });
    expect(loader.refused).toEqual([`http://127.0.0.1:${server.port}/x`]);
    expect(server.hits()).toBe(0);
  });

  it('serves extra contexts given in the options', async () => {
    const contexts = new Map([['http://ctx.example/c', { '@context': { name: 'http://ctx.example/name' } }]]);
    const doc = await parseDocument('{"@context": "http://ctx.example/c", "@id": "http://a.org/x", "name": "n"}', { kind: 'rdf', mediaType: 'application/ld+json' }, 'http://x.example/', { contexts });
    expect(doc.quads.map((q) => q.predicate.value)).toEqual(['http://ctx.example/name']);
  });

  it('a slow remote context is the network\'s time, not the parser\'s: no stall, no CPU charged for the wait', async () => {
    const slow = await startHttpServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 400));
      res.writeHead(200, { 'content-type': 'application/ld+json' }).end('{"@context": {"name": "http://slow.example/name"}}');
    });
    const loaded = new Map<string, IJsonLdContext>();
    // A RemoteContexts that gets the context over HTTP, as the crawl's does (without its store).
    const remoteContexts: RemoteContexts = {
      peek: (url) => loaded.get(url),
      async load(url) {
        const doc = (await (await fetch(`${slow.origin}/ctx`)).json()) as IJsonLdContext;
        loaded.set(url, doc);
        return doc;
      },
    };
    try {
      // Busy CPU during the wait, as other documents of a crawl would keep it.
      const busy = setInterval(() => {
        const end = Date.now() + 20;
        while (Date.now() < end) {}
      }, 25);
      const text = '{"@context": "http://slow.example/c", "@id": "http://a.org/x", "name": "n"}';
      const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'application/ld+json' }, 'http://x.example/', { remoteContexts, timeBudgetMs: 150 });
      clearInterval(busy);
      expect(doc.error).toBeNull();
      expect(doc.quads.map((q) => q.predicate.value)).toEqual(['http://slow.example/name']);
      expect(slow.requests).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});
