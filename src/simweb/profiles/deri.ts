// deri-like: member pages with FOAF files `.xml` served as `application/xml` under a `foaf` path (thesis §11, PLD 3).
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addCalendar, addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { personSlug, TOPICS, WORDS } from './words.ts';

function buildDeri(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const sections = ['/about', '/about/members', '/research', '/research/projects', '/publications', '/news', '/events'].map((p) => b.html(p));
  const [, membersIdx, , projectsIdx, pubsIdx, newsIdx, eventsIdx] = sections as [number, number, number, number, number, number, number];
  const pages: number[] = [root, ...sections];
  for (const s of sections) b.link(root, s);
  const members: number[] = [];
  for (let i = 0, k = Math.max(3, Math.round(size * 0.2)); i < k; i++) {
    const slug = `${personSlug(rng)}-${i}`;
    const page = b.html(`/about/members/${slug}`);
    members.push(page);
    pages.push(page);
    b.link(membersIdx, page);
    const r = rng.next();
    if (r < 0.7) {
      // thesis §11: RDF ends in .xml, served as application/xml; only `foaf` in the path tells (rule pa1).
      b.link(page, b.rdf(`/fileadmin/foaf/${slug}.xml`, 'rdfxml', 'foaf', rng.int(6, 40), 'application/xml'), LinkStyle.profile);
    } else if (r < 0.8) {
      b.link(page, b.rdf(`/people/foaf/${slug}.rdf`, 'rdfxml', 'foaf', rng.int(6, 40)), LinkStyle.typedRdf);
    } else if (r < 0.88) {
      b.link(page, b.error(`/fileadmin/foaf/${slug}.xml`, 404), LinkStyle.profile); // a FOAF link gone stale
    }
    if (rng.chance(0.3)) b.link(page, b.binary(`/fileadmin/documents/${slug}-cv.pdf`), LinkStyle.download);
  }
  const projects: number[] = [];
  for (let i = 0, k = Math.max(2, Math.round(size * 0.05)); i < k; i++) {
    // Some project pages carry `foaf` in the path but are HTML (R false positives, thesis Table 4-6 PLD 3).
    const slug = i % 6 === 0 ? `foaf-${rng.pick(WORDS)}-${i}` : `${rng.pick(TOPICS).replace(/ /g, '-')}-${i}`;
    const page = b.html(`/research/projects/${slug}`);
    projects.push(page);
    pages.push(page);
    b.link(projectsIdx, page);
    for (let j = 0; j < 3; j++) b.link(page, rng.pick(members));
  }
  members.forEach((m, i) => {
    b.link(m, projects[i % projects.length] as number);
  });
  let prev = -1;
  const nPubs = Math.round(size * 0.25);
  for (let p = 0; p * 25 < nPubs; p++) {
    const listing = b.html(`/publications?page=${p + 1}`);
    pages.push(listing);
    b.link(prev < 0 ? pubsIdx : prev, listing, prev < 0 ? LinkStyle.plain : LinkStyle.next);
    prev = listing;
    for (let i = p * 25; i < Math.min(nPubs, (p + 1) * 25); i++) {
      const pub = b.html(`/publications/${2000 + i}`);
      pages.push(pub);
      b.link(listing, pub);
      b.link(pub, members[i % members.length] as number);
      if (rng.chance(0.5)) b.link(pub, b.binary(`/publications/${2000 + i}.bib`), LinkStyle.download);
    }
  }
  for (let i = 0, k = Math.round(size * 0.1); i < k; i++) {
    const page = b.html(`/news/${2005 + (i % 8)}/${rng.pick(WORDS)}-${i}`);
    pages.push(page);
    b.link(newsIdx, page);
  }
  b.link(newsIdx, b.xml('/news/feed.xml'), LinkStyle.altXml);
  addCalendar(b, eventsIdx, '/events/calendar', 2008, 24);
  addNoise(b, rng, pages, { errorRate: 0.06, binaryRate: 0.03 });
  b.robots.crawlDelay = 0.01;
}

/** deri-like: FOAF in `.xml` as `application/xml`; Crawl-delay; a calendar trap. */
export const deriProfile: Profile = {
  name: 'deri-like',
  description: 'member pages with FOAF files (.xml served as application/xml, foaf in the path), publications, news, a calendar trap, Crawl-delay',
  sites: [{ host: 'www.deri-sim.ie', name: 'DERI Galway (simulated)', shortName: 'deri', size: 4080, build: buildDeri }],
};
