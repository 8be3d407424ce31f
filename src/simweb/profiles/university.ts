// university-like (held out): departments, people pages with FOAF files under them, courses, news, an infinite calendar.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addCalendar, addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { personSlug, TOPICS, WORDS } from './words.ts';

const DEPARTMENTS = ['computer-science', 'mathematics', 'physics', 'history', 'linguistics', 'biology', 'economics', 'law'];

function buildUniversity(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const deptIdx = b.html('/departments');
  const newsIdx = b.html('/news');
  const eventsIdx = b.html('/events');
  const coursesIdx = b.html('/courses');
  const pages: number[] = [root, deptIdx, newsIdx, eventsIdx, coursesIdx];
  for (const p of pages.slice(1)) b.link(root, p);
  const nPeople = Math.max(8, Math.round(size * 0.18));
  const perDept = Math.ceil(nPeople / DEPARTMENTS.length);
  const people: number[] = [];
  for (const [d, dept] of DEPARTMENTS.entries()) {
    const page = b.html(`/departments/${dept}`);
    pages.push(page);
    b.link(deptIdx, page);
    const staff = b.html(`/departments/${dept}/people`);
    pages.push(staff);
    b.link(page, staff);
    for (let i = 0; i < perDept; i++) {
      const slug = `${personSlug(rng)}-${d * perDept + i}`;
      const person = b.html(`/people/${slug}`);
      people.push(person);
      pages.push(person);
      b.link(staff, person);
      // FOAF under the person's page: most as foaf.rdf, some as card.ttl behind a neutral anchor, some on ~home pages.
      const x = rng.next();
      if (x < 0.4) b.link(person, b.rdf(`/people/${slug}/foaf.rdf`, 'rdfxml', 'foaf', rng.int(8, 40)));
      else if (x < 0.55) b.link(person, b.rdf(`/people/${slug}/card.ttl`, 'turtle', 'foaf', rng.int(8, 40)), LinkStyle.profile);
      else if (x < 0.65) {
        const home = b.html(`/~${slug}/`);
        pages.push(home);
        b.link(person, home);
        b.link(home, b.rdf(`/~${slug}/foaf.rdf`, 'rdfxml', 'foaf', rng.int(8, 40)), LinkStyle.altRdfXml);
      }
      const pubs = b.html(`/people/${slug}/publications`);
      pages.push(pubs);
      b.link(person, pubs);
      for (let j = 0, n = rng.int(0, 3); j < n; j++) b.link(pubs, b.binary(`/people/${slug}/papers/${rng.pick(WORDS)}-${j}.pdf`), LinkStyle.download);
    }
  }
  for (let i = 0, k = Math.max(4, Math.round(size * 0.12)); i < k; i++) {
    const course = b.html(`/courses/${DEPARTMENTS[i % DEPARTMENTS.length]?.slice(0, 4)}${100 + i}`);
    pages.push(course);
    b.link(coursesIdx, course);
    b.link(course, rng.pick(people));
    if (rng.chance(0.5)) b.link(course, b.binary(`/courses/syllabus-${100 + i}.pdf`), LinkStyle.download);
  }
  for (let i = 0, k = Math.max(4, Math.round(size * 0.12)); i < k; i++) {
    const item = b.html(`/news/${2015 + (i % 9)}/${rng.pick(TOPICS).replace(/ /g, '-')}-${i}`);
    pages.push(item);
    b.link(newsIdx, item);
    if (rng.chance(0.3)) b.link(item, rng.pick(people));
  }
  for (let i = 0, k = Math.max(2, Math.round(size * 0.04)); i < k; i++) {
    const ev = b.html(`/events/${3000 + i}`);
    pages.push(ev);
    b.link(eventsIdx, ev);
    b.link(ev, b.binary(`/events/${3000 + i}.ics`));
  }
  addCalendar(b, eventsIdx, '/events/calendar', 2012, 36);
  addNoise(b, rng, pages, { errorRate: 0.06, binaryRate: 0.03 });
}

/** university-like: FOAF files under people pages (65% of people), an infinite events calendar. */
export const universityProfile: Profile = {
  name: 'university-like',
  description: 'university: departments, staff lists, people pages with FOAF under them (foaf.rdf, card.ttl behind "Personal profile", ~home pages), publications, courses, news, an infinite events calendar',
  sites: [{ host: 'www.univ-sim.edu', name: 'University (simulated)', shortName: 'univ', size: 3500, build: buildUniversity }],
};
