// campus-like (tuning): a university site with an endless events calendar and a research-data repository full of traps.
//
// Written from how such sites commonly look (a Drupal/WordPress faculty site with an events module,
// a CKAN/DKAN/Dataverse-style repository bolted on), to reproduce the failures suspected on the held-out webs
// without looking at them: a calendar whose "next month" never ends, JSON API records per dataset at extension-less
// URLs, activity and history pages, duplicate URLs that differ only by a query parameter, and paginated listings as
// the only way to most datasets, whose RDF sits behind format badges and download buttons.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { paginate } from './paginate.ts';
import { addNoise, monthName } from './noise.ts';
import type { Profile } from './profile.ts';
import { FIRST, LAST, TOPICS, WORDS } from './words.ts';

/** Items per page of every paginated listing (people, news, datasets, tags). */
const PER_PAGE = 15;
const DEPARTMENTS = ['physics', 'history', 'computing', 'law', 'music', 'biology', 'economics', 'languages'];
/** First year of the events calendar; `MONTHS` months are materialised (the last is "this month"), later ones served on demand. */
const FIRST_YEAR = 2022;
const MONTHS = 36;

/** `paginate` with this site's page size. */
const paginateHere = (b: SiteBuilder, first: number, base: string, items: readonly number[], pages: number[]): void =>
  paginate(b, first, base, items, pages, PER_PAGE);

/** People: a page each, some with a FOAF document (linked in the head and the body, or as "Personal profile"). */
function addPeople(b: SiteBuilder, rng: Prng, count: number, pages: number[]): number[] {
  const people: number[] = [];
  for (let i = 0; i < count; i++) {
    const slug = `${rng.pick(FIRST)}-${rng.pick(LAST)}-${i}`;
    const page = b.html(`/people/${slug}`);
    people.push(page);
    pages.push(page);
    const r = rng.next();
    if (r < 0.3) b.link(page, b.rdf(`/people/${slug}.rdf`, 'rdfxml', 'foaf', rng.int(8, 40)), LinkStyle.altRdfXml);
    else if (r < 0.45) b.link(page, b.rdf(`/people/${slug}/foaf`, 'turtle', 'foaf', rng.int(8, 40)), LinkStyle.profile);
    else if (r < 0.5) b.link(page, b.error(`/people/${slug}/foaf`, 404), LinkStyle.profile);
    const pubs = b.html(`/people/${slug}/publications`);
    pages.push(pubs);
    b.link(page, pubs);
    for (let p = 0, k = rng.int(0, 3); p < k; p++) b.link(pubs, b.binary(`/people/${slug}/publications/paper-${p}.pdf`), LinkStyle.download);
  }
  return people;
}

/**
 * The events section: month listings (`/events/list?month=`) with a few events each, whose speakers are people, and
 * the calendar grid view (`/events/calendar?month=`) that every listing and event links: previous, home and next
 * month, forever (the simulator serves months past the materialised ones on demand).
 */
function addEvents(b: SiteBuilder, rng: Prng, eventsHome: number, people: readonly number[], pages: number[]): void {
  b.calendar = { path: '/events/calendar', firstMonth: `${FIRST_YEAR}-01`, months: MONTHS };
  const grid: number[] = [];
  for (let m = 0; m < MONTHS; m++) {
    const id = b.html(`/events/calendar?month=${monthName(FIRST_YEAR, m)}`);
    if (m > 0) {
      b.link(grid[m - 1] as number, id, LinkStyle.next);
      b.link(id, grid[m - 1] as number, LinkStyle.prev);
    }
    b.link(id, 0);
    grid.push(id);
  }
  const venues: number[] = [];
  for (let v = 0; v < 6; v++) {
    const venue = b.html(`/events/venues/${rng.pick(WORDS)}-hall-${v}`);
    venues.push(venue);
    pages.push(venue);
  }
  let newer = -1;
  // Newest month first, as the events page shows it; "previous month" walks back.
  for (let m = MONTHS - 1; m >= 0; m--) {
    const list = b.html(`/events/list?month=${monthName(FIRST_YEAR, m)}`);
    pages.push(list);
    if (newer < 0) b.link(eventsHome, list);
    else {
      b.link(newer, list, LinkStyle.prev);
      b.link(list, newer, LinkStyle.next);
    }
    b.link(list, grid[m] as number);
    for (let e = 0, k = rng.int(1, 5); e < k; e++) {
      const event = b.html(`/events/${FIRST_YEAR + Math.floor(m / 12)}/${rng.pick(TOPICS).replace(/ /g, '-')}-seminar-${m}-${e}`);
      pages.push(event);
      b.link(list, event);
      for (let s = 0, n = rng.int(1, 2); s < n; s++) b.link(event, rng.pick(people));
      b.link(event, rng.pick(venues));
      b.link(event, grid[m] as number);
      b.link(event, b.binary(`/events/${FIRST_YEAR + Math.floor(m / 12)}/seminar-${m}-${e}.ics`), LinkStyle.download);
    }
    newer = list;
  }
  b.link(eventsHome, grid[MONTHS - 1] as number);
}

/**
 * One dataset of the repository and everything around it: DCAT exports (`.rdf` in the head, `TTL`/`JSONLD` badges;
 * a `JSON` badge beside them that is not RDF), the API record as JSON at an extension-less URL, resource pages with a
 * "Go to resource" button (some files are RDF, some of those served as `application/octet-stream`), an activity
 * stream, a version history, and the page again under `?tab=` and `?lang=` (duplicates).
 */
function addDataset(b: SiteBuilder, rng: Prng, slug: string, users: readonly number[], pages: number[]): number {
  const base = `/data/dataset/${slug}`;
  const page = b.html(base);
  pages.push(page);
  const dcat = rng.chance(0.6);
  if (dcat) {
    b.link(page, b.rdf(`${base}.rdf`, 'rdfxml', 'schema', rng.int(20, 80)), LinkStyle.altRdfXml);
    if (rng.chance(0.6)) b.link(page, b.rdf(`${base}.ttl`, 'turtle', 'schema', rng.int(20, 80)), LinkStyle.formatBadge);
    if (rng.chance(0.3)) b.link(page, b.rdf(`${base}.jsonld`, 'jsonld', 'schema', rng.int(20, 80)), LinkStyle.formatBadge);
  }
  b.link(page, b.json(`${base}.json`), LinkStyle.formatBadge);
  b.link(page, b.json(`/data/api/action/dataset?id=${slug}`));
  for (let r = 0, k = rng.int(1, 3); r < k; r++) {
    const id = `${rng.int(10000, 99999)}${r}`;
    const resource = b.html(`${base}/resource/${id}`);
    pages.push(resource);
    b.link(page, resource);
    b.link(resource, page);
    const x = rng.next();
    const file =
      x < 0.15
        ? b.rdf(`${base}/resource/${id}/download/data.ttl`, 'turtle', 'schema', rng.int(40, 300))
        : x < 0.22
          ? b.rdf(`${base}/resource/${id}/download/data.nt`, 'ntriples', 'schema', rng.int(40, 300), 'application/octet-stream')
          : b.binary(`${base}/resource/${id}/download/data.${rng.pick(['csv', 'csv', 'zip', 'pdf', 'txt'])}`);
    b.link(resource, file, LinkStyle.button);
    // Two datasets may draw the same resource id (seed 4 at scale 0.5): the API URL then names the dataset too.
    const api = `/data/api/action/resource?id=${id}`;
    b.link(resource, b.json(b.has(api) ? `${api}&dataset=${slug}` : api));
  }
  const activity = b.html(`${base}/activity`);
  pages.push(activity);
  b.link(page, activity);
  for (let a = 0, k = rng.int(1, 4); a < k; a++) {
    const item = b.html(`/data/activity/${slug}-${a}`);
    pages.push(item);
    b.link(activity, item);
    b.link(item, rng.pick(users));
    b.link(item, page);
  }
  const history = b.html(`${base}/history`);
  pages.push(history);
  b.link(page, history);
  for (let v = 1, k = rng.int(1, 4); v <= k; v++) {
    const version = b.html(`${base}/history?version=${v}`);
    pages.push(version);
    b.link(history, version);
    b.link(version, page);
  }
  for (const q of ['tab=overview', 'lang=ga']) {
    if (!rng.chance(0.7)) continue;
    const alias = b.duplicate(page, `${base}?${q}`);
    b.link(page, alias);
  }
  return page;
}

/** The research-data repository: paginated catalogue, tag and department listings, users with activity streams. */
function addRepository(b: SiteBuilder, rng: Prng, home: number, count: number, pages: number[]): void {
  const users: number[] = [];
  for (let u = 0, k = Math.max(3, Math.round(count / 12)); u < k; u++) {
    const user = b.html(`/data/user/${rng.pick(FIRST)}${rng.pick(LAST)}${u}`);
    pages.push(user);
    users.push(user);
    let prev = user;
    for (let a = 1, n = rng.int(1, 5); a <= n; a++) {
      const stream = b.html(`/data/user/${rng.pick(FIRST)}${u}/activity?page=${a}`);
      pages.push(stream);
      b.link(prev, stream, LinkStyle.next);
      prev = stream;
    }
  }
  const datasets: number[] = [];
  for (let i = 0; i < count; i++) datasets.push(addDataset(b, rng, `${rng.pick(WORDS)}-${rng.pick(TOPICS).split(' ')[0]}-${i + 1}`, users, pages));
  // The catalogue, newest first, also sorted by name: the same datasets under two listings.
  for (const [path, order] of [
    ['/data/datasets', datasets.slice().reverse()],
    ['/data/datasets?sort=name', datasets.slice().sort((x, y) => (b.docs[x]?.path ?? '').localeCompare(b.docs[y]?.path ?? ''))],
  ] as const) {
    const first = b.html(path);
    pages.push(first);
    b.link(home, first);
    paginateHere(b, first, path, order, pages);
  }
  const apiList = b.json('/data/api/action/dataset_list');
  b.link(home, apiList);
  // Tags: each dataset has one to three; a tag listing links its datasets (paginated); a dataset links its tags.
  const tags = TOPICS.map((t) => t.replace(/ /g, '-'));
  const byTag = new Map<string, number[]>();
  for (const d of datasets) {
    for (let t = 0, n = rng.int(1, 3); t < n; t++) {
      const tag = rng.pick(tags);
      const list = byTag.get(tag) ?? [];
      if (!list.includes(d)) list.push(d);
      byTag.set(tag, list);
    }
  }
  for (const [tag, items] of byTag) {
    const first = b.html(`/data/datasets?tags=${tag}`);
    pages.push(first);
    paginateHere(b, first, `/data/datasets?tags=${tag}`, items, pages);
    for (const d of items) b.link(d, first);
  }
  datasets.forEach((d, i) => {
    if (i % 3 === 0) b.link(d, rng.pick(datasets));
  });
  for (const dept of DEPARTMENTS) {
    const org = b.html(`/data/organization/${dept}`);
    pages.push(org);
    b.link(home, org);
    paginateHere(
      b,
      org,
      `/data/organization/${dept}`,
      datasets.filter((_, i) => i % DEPARTMENTS.length === DEPARTMENTS.indexOf(dept)),
      pages,
    );
  }
}

function buildCampus(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const sections = ['/people', '/departments', '/events', '/news', '/data', '/about'].map((p) => b.html(p));
  const [peopleHome, deptHome, eventsHome, newsHome, dataHome] = sections as [number, number, number, number, number];
  const pages: number[] = [root, ...sections];
  for (const s of sections) b.link(root, s);
  const people = addPeople(b, rng, Math.max(8, Math.round(size * 0.09)), pages);
  // The staff directory A–Z (paginated) and department staff lists: the ways to people pages besides events.
  const byLetter = new Map<string, number[]>();
  for (const p of people) {
    const letter = (b.docs[p]?.path.split('/')[2] ?? 'a')[0] as string;
    byLetter.set(letter, [...(byLetter.get(letter) ?? []), p]);
  }
  for (const [letter, items] of [...byLetter].sort()) {
    const first = b.html(`/people?letter=${letter}`);
    pages.push(first);
    b.link(peopleHome, first);
    paginateHere(b, first, `/people?letter=${letter}`, items, pages);
  }
  DEPARTMENTS.forEach((dept, d) => {
    const page = b.html(`/departments/${dept}`);
    const staff = b.html(`/departments/${dept}/staff`);
    pages.push(page, staff);
    b.link(deptHome, page);
    b.link(page, staff);
    for (let i = d; i < people.length; i += DEPARTMENTS.length) b.link(staff, people[i] as number);
  });
  addEvents(b, rng, eventsHome, people, pages);
  // News: a long paginated archive of barren stories (some mention a person).
  const stories: number[] = [];
  for (let i = 0, k = Math.round(size * 0.06); i < k; i++) {
    const story = b.html(`/news/${2015 + (i % 10)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}-${i}`);
    pages.push(story);
    stories.push(story);
    if (rng.chance(0.3)) b.link(story, rng.pick(people));
  }
  paginateHere(b, newsHome, '/news', stories, pages);
  addRepository(b, rng, dataHome, Math.max(6, Math.round(size * 0.03)), pages);
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.03, duplicateRate: 0.02 });
}

/**
 * campus-like (tuning profile): a university with people (FOAF for some), an events section whose calendar
 * grid never ends, a long news archive, and a research-data repository with DCAT exports among barren API records,
 * activity, history and duplicate pages, reached through paginated listings.
 */
export const campusProfile: Profile = {
  name: 'campus-like',
  description: 'university with FOAF people pages, an endless events calendar, a news archive and a research-data repository (DCAT exports, JSON API records, activity/history, ?tab=/?lang= duplicates, paginated listings, download buttons)',
  sites: [{ host: 'www.campus-sim.edu', name: 'Campus (simulated)', shortName: 'campus', size: 8000, build: buildCampus }],
};
