// openlylocal-like: council entity pages with .rdf/.json/.xml alternates and many look-alike siblings without RDF (thesis §11, PLD 2).
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { personSlug, TOWNS, WORDS } from './words.ts';

/**
 * Adds an entity page at `/<kind>/<id>-<slug>`; with probability `pRdf` it has alternates
 * `/<kind>/<id>.rdf|.json|.xml`, announced by `<link rel="alternate">` and `<a>RDF</a>` (the anchor "RDF", thesis §4 an2/ty1).
 */
function addEntity(b: SiteBuilder, rng: Prng, kind: string, id: number, slug: string, pRdf: number): number {
  const page = b.html(`/${kind}/${id}-${slug}`);
  if (rng.chance(pRdf)) {
    b.link(page, b.rdf(`/${kind}/${id}.rdf`, 'rdfxml', 'council', rng.int(10, 60)), LinkStyle.altRdfXml);
    b.link(page, b.json(`/${kind}/${id}.json`), LinkStyle.altJson);
    b.link(page, b.xml(`/${kind}/${id}.xml`), LinkStyle.altXml);
  }
  return page;
}

function buildOpenlylocal(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const pages: number[] = [root];
  const index = b.html('/councils');
  const about = b.html('/info/about_us');
  const hyperlocal = b.html('/hyperlocal_sites');
  pages.push(index, about, hyperlocal);
  b.link(root, index);
  b.link(root, about);
  b.link(root, hyperlocal);
  const nCouncils = Math.max(2, Math.round(size / 350));
  const councils: number[] = [];
  for (let c = 0; c < nCouncils; c++) {
    const page = addEntity(b, rng, 'councils', c + 1, `${TOWNS[c % TOWNS.length]}${c >= TOWNS.length ? `-${c}` : ''}-council`, 0.8);
    councils.push(page);
    pages.push(page);
    b.link(index, page);
  }
  // Members and committees: alike URLs, only some with RDF (r1 false positives, thesis Table 4-6 HR precision 57%).
  const members: number[] = [];
  const committees: number[] = [];
  for (let i = 0, k = Math.round(size * 0.15); i < k; i++) {
    const page = addEntity(b, rng, 'members', 100 + i, personSlug(rng), 0.5);
    members.push(page);
    pages.push(page);
    b.link(councils[i % councils.length] as number, page);
  }
  for (let i = 0, k = Math.max(1, Math.round(size * 0.04)); i < k; i++) {
    const page = addEntity(b, rng, 'committees', 10 + i, `${rng.pick(WORDS)}-committee`, 0.5);
    committees.push(page);
    pages.push(page);
    b.link(councils[i % councils.length] as number, page);
  }
  members.forEach((m, i) => {
    b.link(m, committees[(i * 7) % committees.length] as number);
  });
  // Meetings and their documents: HTML and PDFs without RDF.
  for (let i = 0, k = Math.round(size * 0.12); i < k; i++) {
    const meeting = b.html(`/meetings/${1000 + i}`);
    pages.push(meeting);
    b.link(committees[i % committees.length] as number, meeting);
    if (i % 5 === 0) b.link(members[i % members.length] as number, meeting);
    if (rng.chance(0.8)) {
      const doc = b.html(`/documents/${5000 + i}`);
      pages.push(doc);
      b.link(meeting, doc);
      if (rng.chance(0.5)) b.link(doc, b.binary(`/documents/${5000 + i}/minutes.pdf`), LinkStyle.download);
    }
  }
  const feeds = b.xml('/hyperlocal_sites.xml');
  b.link(hyperlocal, feeds, LinkStyle.altXml);
  addNoise(b, rng, pages, { errorRate: 0.1, binaryRate: 0.02 });
}

/** openlylocal-like: entity pages with alternates; half the look-alike siblings have none. */
export const openlylocalProfile: Profile = {
  name: 'openlylocal-like',
  description: 'council/member/committee pages with .rdf/.json/.xml alternates (<link rel=alternate>, anchor "RDF"); half the siblings lack RDF',
  sites: [{ host: 'www.openlylocal-sim.com', name: 'OpenlyLocal (simulated)', shortName: 'openlylocal', size: 7748, build: buildOpenlylocal }],
};
