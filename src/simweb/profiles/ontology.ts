// ontology-like (held out): vocabulary documentation with content negotiation, per-term URIs, .owl/.ttl downloads.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { TOPICS, WORDS } from './words.ts';

const CLASS_WORDS = ['Agent', 'Event', 'Place', 'Document', 'Dataset', 'Process', 'Role', 'Measure', 'Collection', 'Activity', 'Source', 'Record'];

/** A conneg resource at `path`: 303 to `path.ttl` (RDF) or `path.html`; returns [uri, rdf, html]. */
function resource(b: SiteBuilder, rng: Prng, path: string, triples: [number, number]): [number, number, number] {
  const rdf = b.rdf(`${path}.ttl`, 'turtle', 'archive', rng.int(triples[0], triples[1]));
  const html = b.html(`${path}.html`);
  return [b.conneg(path, rdf, html), rdf, html];
}

function buildOntology(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const nsIdx = b.html('/ns');
  const docsIdx = b.html('/docs');
  const blogIdx = b.html('/blog');
  const pages: number[] = [root, nsIdx, docsIdx, blogIdx];
  for (const p of pages.slice(1)) b.link(root, p);
  // An ontology costs about 3 + 3.2 × terms documents; terms per ontology 8–30.
  const budget = Math.round(size * 0.8);
  let used = 0;
  for (let o = 0; used < budget; o++) {
    const name = `${(TOPICS[o % TOPICS.length] ?? 'vocab').replace(/ /g, '')}${o >= TOPICS.length ? o : ''}`;
    const [uri, , html] = resource(b, rng, `/ns/${name}`, [30, 120]);
    pages.push(html);
    // The index links half the vocabularies by their URI (303), half by their documentation page.
    b.link(nsIdx, rng.chance(0.5) ? uri : html);
    b.link(html, b.rdf(`/ns/${name}.owl`, 'rdfxml', 'archive', rng.int(30, 120)), LinkStyle.download);
    if (rng.chance(0.5)) b.link(html, b.rdf(`/ns/${name}.jsonld`, 'jsonld', 'archive', rng.int(30, 120)), LinkStyle.altJsonLd);
    const terms: number[] = [];
    const termHtml: number[] = [];
    for (let t = 0, n = rng.int(8, 30); t < n; t++) {
      const term = `${rng.pick(CLASS_WORDS)}${t}`;
      const [tUri, , tHtml] = resource(b, rng, `/ns/${name}/${term}`, [5, 20]);
      terms.push(tUri);
      termHtml.push(tHtml);
      pages.push(tHtml);
      b.link(html, tUri);
      b.link(tHtml, uri);
    }
    termHtml.forEach((h, i) => {
      for (let j = 1; j <= 2; j++) b.link(h, terms[(i + j) % terms.length] as number);
    });
    for (let v = 0, k = rng.int(0, 3); v < k; v++) {
      const version = b.html(`/ns/${name}/versions/${v + 1}.0`);
      pages.push(version);
      b.link(html, version);
      if (rng.chance(0.6)) b.link(version, b.rdf(`/ns/${name}/versions/${v + 1}.0.owl`, 'rdfxml', 'archive', rng.int(20, 100)), LinkStyle.download);
    }
    used = b.docs.length;
  }
  for (let i = 0, k = Math.max(3, Math.round(size * 0.08)); i < k; i++) {
    const doc = b.html(`/docs/${rng.pick(WORDS)}-${i}`);
    pages.push(doc);
    b.link(docsIdx, doc);
  }
  for (let i = 0, k = Math.max(3, Math.round(size * 0.06)); i < k; i++) {
    const post = b.html(`/blog/${2016 + (i % 8)}/${rng.pick(TOPICS).replace(/ /g, '-')}-${i}`);
    pages.push(post);
    b.link(blogIdx, post);
  }
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.02 });
}

/** ontology-like: every vocabulary and term URI content-negotiates; terms are listed only on HTML documentation. */
export const ontologyProfile: Profile = {
  name: 'ontology-like',
  description: 'vocabulary documentation: vocabulary and term URIs answer 303 to .ttl or .html by Accept, .owl/.jsonld downloads, versions; terms are listed only on the HTML pages; docs and blog',
  sites: [{ host: 'vocab.onto-sim.org', name: 'Vocabulary site (simulated)', shortName: 'onto', size: 2500, build: buildOntology }],
};
