// The JSON-LD contexts rdfscout ships (data/contexts/): each listed with its origin, each usable with no network.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTEXTS_DIR, listShippedContexts, readShippedIndex } from '../../src/rdf/context-loader.ts';
import { parseDocument } from '../../src/rdf/index.ts';

const index = readShippedIndex();

/** A term the context defines with an IRI (a property or a class), and that IRI (null when written as a compact IRI). */
function someTerm(file: string): { term: string; iri: string | null } {
  const context = JSON.parse(readFileSync(new URL(file, CONTEXTS_DIR), 'utf8'))['@context'];
  const objects = (Array.isArray(context) ? context : [context]).filter((c) => typeof c === 'object' && c !== null);
  for (const o of objects) {
    for (const [term, def] of Object.entries(o as Record<string, unknown>)) {
      const id = typeof def === 'string' ? def : (def as { '@id'?: unknown } | null)?.['@id'];
      if (!term.startsWith('@') && !term.includes(':') && typeof id === 'string' && /^https?:\/\//.test(id)) return { term, iri: id };
    }
  }
  for (const o of objects) {
    for (const [term, def] of Object.entries(o as Record<string, unknown>)) {
      if (!term.startsWith('@') && typeof def === 'string' && /^[a-z]+:\w/.test(def)) return { term, iri: null };
    }
  }
  throw new Error(`${file}: no term with an absolute IRI`);
}

describe('shipped JSON-LD contexts', () => {
  it('lists each file with its URLs (http and https), its source, the date it was taken and its licence', () => {
    expect(index.length).toBeGreaterThanOrEqual(20);
    for (const c of index) {
      expect(c.urls.length).toBeGreaterThanOrEqual(2);
      for (const u of c.urls) expect(c.urls).toContain(u.startsWith('https:') ? `http:${u.slice(6)}` : `https:${u.slice(5)}`);
      expect(c.source).not.toBe('');
      expect(c.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.licence).not.toBe('');
      expect(() => readFileSync(new URL(c.file, CONTEXTS_DIR))).not.toThrow();
    }
    for (const url of ['https://www.w3.org/ns/activitystreams', 'http://www.w3.org/ns/anno.jsonld', 'http://www.w3.org/ns/csvw', 'https://www.w3.org/2018/credentials/v1', 'https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/did/v1', 'https://w3id.org/security/v2', 'https://www.w3.org/ns/odrl.jsonld', 'http://iiif.io/api/presentation/2/context.json', 'http://iiif.io/api/presentation/3/context.json', 'https://linked.art/ns/v1/linked-art.json', 'https://geojson.org/geojson-ld/geojson-context.jsonld']) {
      expect(listShippedContexts().has(url)).toBe(true);
    }
  });

  it('ships every context a shipped one imports or scopes (a shipped context needs no fetch)', () => {
    const named: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (typeof v === 'object' && v !== null) {
        for (const [k, x] of Object.entries(v)) {
          if ((k === '@context' || k === '@import') && typeof x === 'string') named.push(x);
          if (k === '@context' && Array.isArray(x)) for (const e of x) if (typeof e === 'string') named.push(e);
          walk(x);
        }
      }
    };
    for (const c of index) walk(JSON.parse(readFileSync(new URL(c.file, CONTEXTS_DIR), 'utf8')));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((u) => !listShippedContexts().has(u))).toEqual([]);
  });

  // Without remote contexts (the parser's default) any context a shipped one imports must be shipped too.
  it.each(index.map((c) => [c.file, c.urls[0] as string]))('%s gives triples offline (as %s)', async (file, url) => {
    const { term, iri } = someTerm(file);
    const text = JSON.stringify({ '@context': url, '@id': 'http://ex.org/s', '@type': term });
    const doc = await parseDocument(text, { kind: 'rdf', mediaType: 'application/ld+json' }, 'http://docs.example/doc');
    expect(doc.error).toBeNull();
    if (iri !== null) expect(doc.quads.map((q) => q.object.value)).toContain(iri);
    else expect(doc.quads.map((q) => q.object.value)).toEqual([expect.stringMatching(/^https?:\/\/\S+$/)]);
  });
});
