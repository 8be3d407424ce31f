// dbtune-like: music datasets whose resource URIs answer 303 (content negotiation) to `.rdf` or `.html` (thesis §11, PLD 1).
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';

const DATASETS = ['jamendo', 'magnatune', 'musicbrainz', 'bbc-peel', 'myspace', 'classical'];
const KINDS = ['artist', 'record', 'track'] as const;
const PER_LISTING = 20;

function buildDbtune(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const pages: number[] = [root];
  b.link(root, pages[pages.push(b.html('/about')) - 1] as number);
  const datasets = DATASETS.slice(0, Math.max(1, Math.min(DATASETS.length, Math.round(size / 300))));
  // Each resource costs about 3.1 documents: the 303 URI, its .rdf and its .html (+ some legacy 301s).
  const perDataset = Math.max(3, Math.round((size * 0.88) / 3.1 / datasets.length));
  for (const ds of datasets) {
    const dsPage = b.html(`/${ds}`);
    pages.push(dsPage);
    b.link(root, dsPage);
    const counts = { artist: Math.ceil(perDataset * 0.35), record: Math.ceil(perDataset * 0.35), track: Math.ceil(perDataset * 0.3) };
    const uri: Record<string, number[]> = {};
    const htmlOf: Record<string, number[]> = {};
    const rdfOf: Record<string, number[]> = {};
    for (const kind of KINDS) {
      uri[kind] = [];
      htmlOf[kind] = [];
      rdfOf[kind] = [];
      for (let i = 0; i < counts[kind]; i++) {
        const base = `/${ds}/${kind}/${i + 1}`;
        const rdf = b.rdf(`${base}.rdf`, 'rdfxml', 'music', rng.int(8, 48));
        const html = b.html(`${base}.html`);
        pages.push(html);
        rdfOf[kind]?.push(rdf);
        htmlOf[kind]?.push(html);
        uri[kind]?.push(b.conneg(base, rdf, html));
      }
    }
    // Listings of artists: `/<ds>/artists?page=N`, alike but for the query (thesis §5 r2).
    const artists = uri.artist ?? [];
    let prev = -1;
    for (let p = 0; p * PER_LISTING < artists.length; p++) {
      const listing = b.html(`/${ds}/artists?page=${p + 1}`);
      pages.push(listing);
      if (p < 5) b.link(dsPage, listing);
      if (prev >= 0) {
        b.link(prev, listing, LinkStyle.next);
        b.link(listing, prev, LinkStyle.prev);
      }
      prev = listing;
      for (const a of artists.slice(p * PER_LISTING, (p + 1) * PER_LISTING)) {
        // One link in ten uses a legacy path that 301s to the resource URI: a 301 → 303 → 200 chain.
        if (rng.chance(0.1)) {
          const legacy = b.redirect(`/music/${ds}${b.docs[a]?.path.slice(ds.length + 1)}`, a, 301);
          b.link(listing, legacy);
        } else b.link(listing, a);
      }
    }
    // Artists' pages link their records, records' pages their tracks; some link their own RDF ("RDF").
    const link = (fromKind: 'artist' | 'record', toKind: 'record' | 'track'): void => {
      const from = htmlOf[fromKind] ?? [];
      const to = uri[toKind] ?? [];
      to.forEach((t, i) => {
        b.link(from[i % from.length] as number, t);
      });
    };
    link('artist', 'record');
    link('record', 'track');
    for (const kind of KINDS) {
      (htmlOf[kind] ?? []).forEach((h, i) => {
        b.link(h, dsPage);
        if (rng.chance(0.3)) b.link(h, rdfOf[kind]?.[i] as number, LinkStyle.rdfAnchor);
      });
    }
  }
  addNoise(b, rng, pages, { errorRate: 0.1, binaryRate: 0.01, duplicateRate: 0.01 });
}

/** dbtune-like: most fetches are redirects (thesis Table 4-3: 76%), RDF/XML with the Music Ontology. */
export const dbtuneProfile: Profile = {
  name: 'dbtune-like',
  description: 'music datasets; resource URIs answer 303 to .rdf (RDF/XML) or .html by Accept; legacy 301s; 10% errors',
  sites: [{ host: 'dbtune-sim.org', name: 'DBTune (simulated)', shortName: 'dbtune', size: 7230, build: buildDbtune }],
};
