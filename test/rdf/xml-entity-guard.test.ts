// RDF/XML entity attacks: billion laughs, external entities, large expansions are refused quickly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkXmlEntities, parseDocument } from '../../src/rdf/index.ts';
import { fixture, startCountingServer } from './helpers.ts';

const RDFXML = { kind: 'rdf', mediaType: 'application/rdf+xml' } as const;
let server: Awaited<ReturnType<typeof startCountingServer>>;
beforeAll(async () => {
  server = await startCountingServer();
});
afterAll(async () => {
  await server.close();
});

describe('RDF/XML entity guard', () => {
  it('rejects a billion-laughs document quickly, with bounded memory', async () => {
    const before = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const doc = await parseDocument(fixture('billion-laughs.rdf'), RDFXML, 'http://x.example/');
    expect(performance.now() - t0).toBeLessThan(100);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
    expect(doc.quads).toEqual([]);
    expect(doc.partial).toEqual([]);
    expect(doc.error).toMatchObject({ code: 'RDFSCOUT_PARSE_FAILED', line: 4 });
    expect(doc.error?.message).toMatch(/billion laughs/);
  });

  it('rejects external entities without fetching them', async () => {
    const text = fixture('external-entity.rdf').replace('PORT', String(server.port));
    const doc = await parseDocument(text, RDFXML, 'http://x.example/');
    expect(doc.error?.message).toMatch(/external entity &secret;/);
    expect(doc.quads).toEqual([]);
    expect(server.hits()).toBe(0);
  });

  it('rejects parameter entities', () => {
    expect(checkXmlEntities('<!DOCTYPE r [<!ENTITY % p "x"> %p;]><r/>')?.message).toMatch(/parameter entity/);
  });

  it('rejects a large entity referenced many times (linear blow-up) before parsing', async () => {
    const big = 'x'.repeat(10_000);
    const refs = '&big;'.repeat(20_000); // 200 MB if expanded
    const text = `<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [<!ENTITY big "${big}">]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
<rdf:Description rdf:about="http://example.org/a"><ex:p>${refs}</ex:p></rdf:Description></rdf:RDF>`;
    const t0 = performance.now();
    const doc = await parseDocument(text, RDFXML, 'http://x.example/');
    expect(performance.now() - t0).toBeLessThan(500);
    expect(doc.error?.message).toMatch(/more than 1048576 characters/);
    expect(doc.error?.line).toBe(4);
  });

  it('allows the plain-entity idiom of OWL files', () => {
    const text = '<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n <!ENTITY owl "http://www.w3.org/2002/07/owl#" >\n <!ENTITY xsd \'http://www.w3.org/2001/XMLSchema#\'>\n]>\n<rdf:RDF/>';
    expect(checkXmlEntities(text)).toBeNull();
    expect(checkXmlEntities('<?xml version="1.0"?><!-- no doctype --><rdf:RDF/>')).toBeNull();
  });
});
