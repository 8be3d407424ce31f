// museum-like (held out): a collection with embedded JSON-LD, `rel=alternate` Turtle, RDF/XML served as application/xml.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { personSlug, WORDS } from './words.ts';

const PER_PAGE = 24;
const TYPES = ['painting', 'drawing', 'print', 'sculpture', 'textile', 'ceramic'];

function buildMuseum(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const search = b.html('/collection');
  const peopleIdx = b.html('/collection/people');
  const exhibitions = b.html('/exhibitions');
  const pages: number[] = [root, search, peopleIdx, exhibitions, b.html('/visit'), b.html('/shop')];
  for (const p of pages.slice(1)) b.link(root, p);
  const people: number[] = [];
  for (let i = 0, k = Math.max(3, Math.round(size * 0.05)); i < k; i++) {
    const page = b.html(`/collection/people/${i + 1}-${personSlug(rng)}`, { embed: 'jsonld', vocab: 'schema', triples: rng.int(4, 8) });
    people.push(page);
    pages.push(page);
    if (rng.chance(0.6)) b.link(page, b.rdf(`/collection/people/${i + 1}.jsonld`, 'jsonld', 'schema', rng.int(10, 30)), LinkStyle.altJsonLd);
  }
  const objects: number[] = [];
  // An object costs about 2.6 documents: its page, its image, and for two thirds an RDF alternate.
  for (let i = 0, k = Math.max(6, Math.round(size * 0.38)); i < k; i++) {
    const id = 10000 + i * 7;
    const page = b.html(`/collection/object/${id}`, { embed: 'jsonld', vocab: 'schema', triples: rng.int(6, 14) });
    objects.push(page);
    pages.push(page);
    const x = rng.next();
    if (x < 0.45) b.link(page, b.rdf(`/collection/object/${id}.ttl`, 'turtle', 'archive', rng.int(15, 60)), LinkStyle.altTurtle);
    else if (x < 0.65) b.link(page, b.rdf(`/collection/object/${id}/rdf.xml`, 'rdfxml', 'archive', rng.int(15, 60), 'application/xml'), LinkStyle.altXml);
    b.link(page, b.binary(`/media/collection/${id}.jpg`));
    b.link(page, b.json(`/iiif/${id}/manifest.json`));
    const maker = rng.pick(people);
    b.link(page, maker);
    b.link(maker, page);
  }
  // Search results by type, paginated; the people index, paginated.
  for (const type of TYPES) {
    const list = objects.filter((_, i) => i % TYPES.length === TYPES.indexOf(type));
    let prev = search;
    for (let p = 0; p * PER_PAGE < list.length; p++) {
      const listing = b.html(`/collection/search?type=${type}&page=${p + 1}`);
      pages.push(listing);
      b.link(prev, listing, p === 0 ? LinkStyle.plain : LinkStyle.next);
      prev = listing;
      for (const o of list.slice(p * PER_PAGE, (p + 1) * PER_PAGE)) b.link(listing, o);
    }
  }
  for (let p = 0; p * PER_PAGE < people.length; p++) {
    const listing = b.html(`/collection/people?page=${p + 1}`);
    pages.push(listing);
    b.link(peopleIdx, listing);
    for (const o of people.slice(p * PER_PAGE, (p + 1) * PER_PAGE)) b.link(listing, o);
  }
  for (let i = 0, k = Math.max(2, Math.round(size * 0.02)); i < k; i++) {
    const ex = b.html(`/exhibitions/${2010 + (i % 12)}/${rng.pick(WORDS)}-${i}`);
    pages.push(ex);
    b.link(exhibitions, ex);
    for (let j = 0; j < 6; j++) b.link(ex, rng.pick(objects));
    for (let j = 0; j < 4; j++) b.link(ex, b.binary(`/media/exhibitions/${i}-${j}.jpg`));
  }
  addNoise(b, rng, pages, { errorRate: 0.04, binaryRate: 0.05 });
}

/** museum-like: JSON-LD in every object page; Turtle alternates; RDF/XML served as `application/xml`. */
export const museumProfile: Profile = {
  name: 'museum-like',
  description: 'museum collection: object and people pages with embedded JSON-LD, rel=alternate Turtle/JSON-LD, RDF/XML as application/xml, search listings by type, exhibitions, images, IIIF JSON',
  sites: [{ host: 'collection.museum-sim.org', name: 'Museum collection (simulated)', shortName: 'museum', size: 4000, build: buildMuseum }],
};
