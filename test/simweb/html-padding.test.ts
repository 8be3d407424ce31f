// Padded HTML pages (benchmarks at real page sizes): as large as asked, and the same to a crawler — the same
// links, the same embedded RDF — as the unpadded page; RDF documents and other responses are untouched.
import { describe, expect, it } from 'vitest';
import { extractLinks } from '../../src/links/index.ts';
import { parseEmbedded } from '../../src/rdf/index.ts';
import { padHtml } from '../../src/simweb/html-padding.ts';
import { buildWeb, respond } from '../../src/simweb/index.ts';

const web = buildWeb({ profiles: 'mixed', seed: 3, scale: 0.1 });

describe('simweb HTML padding', () => {
  it('pads every HTML page to the size asked; the links and embedded RDF a crawler sees are the same', async () => {
    let html = 0;
    let other = 0;
    for (const site of web.sites) {
      for (const doc of site.docs.slice(0, 60)) {
        const url = `http://${site.host}${doc.path}`;
        const plain = respond(web, url, 'text/html');
        const padded = respond(web, url, 'text/html', { htmlPadBytes: 32 * 1024 });
        expect(padded.status).toBe(plain.status);
        expect(padded.headers).toEqual(plain.headers);
        if (plain.status !== 200 || !String(plain.headers['content-type']).includes('html')) {
          expect(padded.body.equals(plain.body)).toBe(true);
          other++;
          continue;
        }
        html++;
        expect(padded.body.length).toBeGreaterThanOrEqual(32 * 1024);
        const a = plain.body.toString('utf8');
        const b = padded.body.toString('utf8');
        expect(extractLinks(b, url).links.map((l) => l.url)).toEqual(extractLinks(a, url).links.map((l) => l.url));
        const quads = async (text: string) => (await parseEmbedded(text, url)).quads.length;
        expect(await quads(b)).toBe(await quads(a));
      }
    }
    expect(html).toBeGreaterThan(50);
    expect(other).toBeGreaterThan(10);
  });

  it('leaves a page already as large as asked, or one without a body end, as it is', () => {
    expect(padHtml('<html><body>x</body></html>', 10)).toBe('<html><body>x</body></html>');
    expect(padHtml('<p>no body end', 4096)).toBe('<p>no body end');
    expect(padHtml('<html><body>x</body></html>', 4096).length).toBeGreaterThanOrEqual(4096);
  });
});
