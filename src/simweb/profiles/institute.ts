// institute-like (tuning): a research institute whose people are reached through a deep staff directory, with FOAF
// files under several URL shapes and most people without one.
//
// Written from how real university and research-institute sites commonly look — a
// central CMS beside older per-department systems and `~user` home pages — without looking at any held-out
// generator. People are several hops from the start page (faculty → department → research group → members, an A–Z
// staff index, department staff and PhD lists, course pages naming lecturers). FOAF documents sit under three URL
// shapes, one per system (`/people/x/foaf.rdf` in the CMS, `/~x/card.ttl` on home pages, `/staff/profile?id=n&format=rdf`
// in the old staff database), some people have a content-negotiated URI (303 to RDF or to their page), and most have
// none of these. Every person has a barren publications list, many a teaching page; PhD students rarely have FOAF.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { paginate } from './paginate.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { FIRST, LAST, TOPICS, WORDS } from './words.ts';

/** Items per page of the A–Z index and the department staff lists. */
const PER_PAGE = 20;
const FACULTIES: Record<string, readonly string[]> = {
  science: ['physics', 'chemistry', 'mathematics', 'computer-science'],
  engineering: ['electronic-engineering', 'civil-engineering', 'mechanical-engineering'],
  humanities: ['history', 'philosophy', 'linguistics', 'music'],
  'social-sciences': ['economics', 'sociology', 'law'],
};

/** The person-page systems a person may live in, and the share of people in each. */
type System = 'cms' | 'home' | 'legacy';

interface Person {
  page: number;
  system: System;
  student: boolean;
}

/** `paginate` with this site's page size. */
const paginateHere = (b: SiteBuilder, first: number, base: string, items: readonly number[], pages: number[]): void =>
  paginate(b, first, base, items, pages, PER_PAGE);

/** Barren per-person pages: a publications list (PDFs and a BibTeX export) and, for staff, a teaching page. */
function addPersonPages(b: SiteBuilder, rng: Prng, page: number, base: string, student: boolean, pages: number[]): void {
  const pubs = b.html(`${base}/publications`);
  pages.push(pubs);
  b.link(page, pubs);
  for (let p = 0, k = rng.int(0, student ? 2 : 5); p < k; p++) b.link(pubs, b.binary(`${base}/publications/paper-${p}.pdf`), LinkStyle.download);
  if (rng.chance(0.5)) b.link(pubs, b.binary(`${base}/publications.bib`), LinkStyle.download);
  if (!student && rng.chance(0.6)) {
    const teaching = b.html(`${base}/teaching`);
    pages.push(teaching);
    b.link(page, teaching);
  }
}

/**
 * One person, in one of three systems. `cms`: `/people/first-last-n`, FOAF at `/people/…/foaf.rdf` (in the head as
 * RDF/XML, or behind "Personal profile"), sometimes a content-negotiated URI `/id/person/n` (303 to `/id/person/n.rdf`
 * or back to the page). `home`: `/~flast/`, a Turtle profile card `/~flast/card.ttl` behind "Personal profile".
 * `legacy`: `/staff/profile?id=n`, an `RDF` format badge to `…&format=rdf` beside a `VCF` badge (a vCard, not RDF).
 */
function addPerson(b: SiteBuilder, rng: Prng, i: number, student: boolean, pages: number[]): Person {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const r = rng.next();
  const system: System = r < 0.55 ? 'cms' : r < 0.78 ? 'home' : 'legacy';
  // PhD students seldom keep a profile document; staff about four in ten.
  const foaf = rng.chance(student ? 0.08 : 0.42);
  const triples = rng.int(8, 40);
  if (system === 'cms') {
    const base = `/people/${first}-${last}-${i}`;
    const page = b.html(base);
    pages.push(page);
    if (foaf) {
      const rdf = b.rdf(`${base}/foaf.rdf`, 'rdfxml', 'foaf', triples);
      b.link(page, rdf, rng.chance(0.6) ? LinkStyle.altRdfXml : LinkStyle.profile);
      if (rng.chance(0.4)) b.link(page, b.conneg(`/id/person/${i}`, b.rdf(`/id/person/${i}.rdf`, 'rdfxml', 'foaf', triples), page));
    }
    addPersonPages(b, rng, page, base, student, pages);
    return { page, system, student };
  }
  if (system === 'home') {
    const base = `/~${first[0]}${last}${i}`;
    const page = b.html(`${base}/`);
    pages.push(page);
    if (foaf) b.link(page, b.rdf(`${base}/card.ttl`, 'turtle', 'foaf', triples), LinkStyle.profile);
    else if (rng.chance(0.1)) b.link(page, b.error(`${base}/card.ttl`, 404), LinkStyle.profile);
    const papers = b.html(`${base}/papers.html`);
    pages.push(papers);
    b.link(page, papers);
    for (let p = 0, k = rng.int(0, 4); p < k; p++) b.link(papers, b.binary(`${base}/papers/p${p}.pdf`), LinkStyle.download);
    if (rng.chance(0.5)) b.link(page, b.binary(`${base}/cv.pdf`), LinkStyle.download);
    return { page, system, student };
  }
  const base = `/staff/profile?id=${1000 + i}`;
  const page = b.html(base);
  pages.push(page);
  if (foaf) b.link(page, b.rdf(`${base}&format=rdf`, 'rdfxml', 'foaf', triples), LinkStyle.formatBadge);
  b.link(page, b.binary(`${base}&format=vcf`), LinkStyle.formatBadge);
  const pubs = b.html(`/staff/publications?id=${1000 + i}`);
  pages.push(pubs);
  b.link(page, pubs);
  return { page, system, student };
}

/** Research groups: a page with projects and seminars (barren) and a members list linking its people. */
function addGroups(b: SiteBuilder, rng: Prng, dept: number, deptSlug: string, members: readonly Person[], pages: number[]): void {
  for (let g = 0, k = rng.int(1, 3); g < k; g++) {
    const slug = `${rng.pick(TOPICS).replace(/ /g, '-')}-${deptSlug}-${g}`;
    const group = b.html(`/research/groups/${slug}`);
    const list = b.html(`/research/groups/${slug}/members`);
    pages.push(group, list);
    b.link(dept, group);
    b.link(group, list);
    for (const m of members) if (rng.chance(0.35)) b.link(list, m.page);
    for (let p = 0, n = rng.int(1, 4); p < n; p++) {
      const project = b.html(`/research/projects/${rng.pick(WORDS)}-${slug}-${p}`);
      pages.push(project);
      b.link(group, project);
      if (members.length > 0) b.link(project, (rng.pick(members) as Person).page);
    }
    const seminars = b.html(`/research/groups/${slug}/seminars`);
    pages.push(seminars);
    b.link(group, seminars);
  }
}

function buildInstitute(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const sections = ['/research', '/staff', '/study', '/news', '/about'].map((p) => b.html(p));
  const [research, staff, study, newsHome] = sections as [number, number, number, number];
  const pages: number[] = [root, ...sections];
  for (const s of sections) b.link(root, s);
  const people: Person[] = [];
  const count = Math.max(20, Math.round(size * 0.2));
  for (let i = 0; i < count; i++) people.push(addPerson(b, rng, i, rng.chance(0.3), pages));

  // Faculties → departments → staff lists, PhD lists and research groups → members.
  const depts = Object.entries(FACULTIES).flatMap(([fac, ds]) => ds.map((d) => [fac, d] as const));
  const facultyPages = new Map<string, number>();
  for (const fac of Object.keys(FACULTIES)) {
    const page = b.html(`/research/faculties/${fac}`);
    pages.push(page);
    b.link(research, page);
    facultyPages.set(fac, page);
  }
  depts.forEach(([fac, d], k) => {
    const base = `/research/faculties/${fac}/${d}`;
    const dept = b.html(base);
    pages.push(dept);
    b.link(facultyPages.get(fac) as number, dept);
    const members = people.filter((_, i) => i % depts.length === k);
    for (const [kind, list] of [
      ['staff', members.filter((m) => !m.student)],
      ['phd-students', members.filter((m) => m.student)],
    ] as const) {
      const first = b.html(`${base}/${kind}`);
      pages.push(first);
      b.link(dept, first);
      paginateHere(b, first, `${base}/${kind}`, list.map((m) => m.page), pages);
    }
    addGroups(b, rng, dept, d, members, pages);
    for (const m of members) b.link(m.page, dept);
  });

  // The A–Z staff index: one listing per letter of the surname, paginated.
  const byLetter = new Map<string, number[]>();
  for (const m of people) {
    const path = b.docs[m.page]?.path ?? '';
    const name = /^\/people\/[a-z]+-([a-z])/.exec(path)?.[1] ?? /^\/~[a-z]([a-z])/.exec(path)?.[1] ?? 's';
    byLetter.set(name, [...(byLetter.get(name) ?? []), m.page]);
  }
  for (const [letter, items] of [...byLetter].sort()) {
    const first = b.html(`/staff/a-z/${letter}`);
    pages.push(first);
    b.link(staff, first);
    paginateHere(b, first, `/staff/a-z/${letter}`, items, pages);
  }

  // Study: courses list their modules; modules name their lecturers (staff only).
  const lecturers = people.filter((m) => !m.student);
  for (let c = 0, k = Math.max(3, Math.round(size * 0.006)); c < k; c++) {
    const course = b.html(`/study/courses/${rng.pick(TOPICS).replace(/ /g, '-')}-${c}`);
    pages.push(course);
    b.link(study, course);
    for (let m = 0, n = rng.int(4, 10); m < n; m++) {
      const module = b.html(`/study/modules/${String.fromCharCode(65 + (c % 26))}${100 + c * 10 + m}`);
      pages.push(module);
      b.link(course, module);
      if (lecturers.length > 0 && rng.chance(0.7)) b.link(module, (rng.pick(lecturers) as Person).page);
      if (rng.chance(0.5)) b.link(module, b.binary(`/study/modules/${100 + c * 10 + m}/handbook.pdf`), LinkStyle.download);
    }
  }

  // News: a paginated archive of barren stories, some naming a person.
  const stories: number[] = [];
  for (let i = 0, k = Math.round(size * 0.06); i < k; i++) {
    const story = b.html(`/news/${2016 + (i % 9)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}-${i}`);
    pages.push(story);
    stories.push(story);
    if (rng.chance(0.25)) b.link(story, (rng.pick(people) as Person).page);
  }
  paginateHere(b, newsHome, '/news', stories, pages);
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.03, duplicateRate: 0.02 });
}

/**
 * institute-like (tuning profile): a research institute whose people pages are several hops deep (faculty →
 * department → group → members, an A–Z index, staff and PhD lists, course modules), with FOAF files under three URL
 * shapes and content negotiation for some, none for most, and a barren publications list for everyone.
 */
export const instituteProfile: Profile = {
  name: 'institute-like',
  description: 'research institute: people reached through faculties, departments, groups, an A–Z index and course modules; FOAF under /people/x/foaf.rdf, /~x/card.ttl and ?format=rdf, some content-negotiated URIs, most people without; barren publications lists',
  sites: [{ host: 'www.institute-sim.org', name: 'Institute (simulated)', shortName: 'institute', size: 6000, build: buildInstitute }],
};
