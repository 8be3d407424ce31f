// portal-like (tuning): an open-data portal (DKAN/Socrata-like) where most of a dataset page's links lead nowhere RDF.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { paginate } from './paginate.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { FIRST, LAST, TOPICS, WORDS } from './words.ts';

/** Datasets per catalogue page and per topic page (both paginated with `next »`). */
const PER_PAGE = 20;

/** `paginate` with this site's page size. */
const paginateHere = (b: SiteBuilder, first: number, path: string, items: readonly number[], pages: number[]): void =>
  paginate(b, first, path, items, pages, PER_PAGE);

/**
 * One dataset page and everything it links: DCAT metadata exports under `?format=` (RDF/XML, Turtle; JSON is not
 * RDF) when the portal harvested DCAT for it, resource pages whose "Go to resource" button downloads a file (a few
 * are Turtle), and the barren pages every portal adds (revision history, embed widget, visualisation, comments, an API
 * record in JSON).
 */
function addDataset(b: SiteBuilder, rng: Prng, slug: string, users: readonly number[], pages: number[]): number {
  const base = `/datasets/${slug}`;
  const page = b.html(base);
  pages.push(page);
  const dcat = rng.chance(0.65);
  if (dcat) {
    b.link(page, b.rdf(`${base}/metadata?format=rdf`, 'rdfxml', 'schema', rng.int(15, 60)), LinkStyle.formatBadge);
    if (rng.chance(0.7)) b.link(page, b.rdf(`${base}/metadata?format=ttl`, 'turtle', 'schema', rng.int(15, 60)), LinkStyle.formatBadge);
  }
  b.link(page, b.json(`${base}/metadata?format=json`), LinkStyle.formatBadge);
  for (let r = 0, k = rng.int(1, 3); r < k; r++) {
    const resource = b.html(`${base}/resource/${rng.int(1000, 9999)}-${r}`);
    pages.push(resource);
    b.link(page, resource);
    const file = dcat && rng.chance(0.3) ? b.rdf(`/files/${slug}-${r}/download`, 'turtle', 'schema', rng.int(40, 200)) : b.binary(`/files/${slug}-${r}/data.${rng.pick(['csv', 'csv', 'zip', 'pdf'])}`);
    b.link(resource, file, LinkStyle.button);
    b.link(resource, page);
  }
  const history = b.html(`${base}/revisions`);
  pages.push(history);
  b.link(page, history);
  for (let v = 1, k = rng.int(2, 5); v <= k; v++) {
    const revision = b.html(`${base}/revisions/${v}`);
    pages.push(revision);
    b.link(history, revision);
    b.link(revision, rng.pick(users));
  }
  for (const extra of ['embed', 'visualization', 'comments']) {
    const p = b.html(`${base}/${extra}`);
    pages.push(p);
    b.link(page, p);
  }
  b.link(page, b.json(`/api/views/${slug}.json`));
  return page;
}

function buildPortal(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const catalogue = b.html('/datasets');
  const topicsIndex = b.html('/topics');
  const publishersIndex = b.html('/publishers');
  const developers = b.html('/developers');
  const pages: number[] = [root, catalogue, topicsIndex, publishersIndex, developers];
  for (const p of [catalogue, topicsIndex, publishersIndex, developers]) b.link(root, p);
  b.link(developers, b.json('/api/catalog.json'));
  // Users with paginated activity streams (barren, and reached from every revision).
  const users: number[] = [];
  for (let u = 0, k = Math.max(3, Math.round(size / 150)); u < k; u++) {
    const user = b.html(`/users/${rng.pick(FIRST)}-${rng.pick(LAST)}-${u}`);
    pages.push(user);
    users.push(user);
    let prev = user;
    for (let a = 1, n = rng.int(1, 4); a <= n; a++) {
      const activity = b.html(`/users/${u}/activity?page=${a}`);
      pages.push(activity);
      b.link(prev, activity, LinkStyle.next);
      prev = activity;
    }
  }
  const nDatasets = Math.max(4, Math.round(size / 16));
  const datasets: number[] = [];
  for (let i = 0; i < nDatasets; i++) datasets.push(addDataset(b, rng, `${rng.pick(WORDS)}-${rng.pick(WORDS)}-${i + 1}`, users, pages));
  // "Similar datasets" on a few dataset pages: most datasets are reached through the listings only.
  for (const d of datasets) if (rng.chance(0.2)) b.link(d, rng.pick(datasets));
  paginateHere(b, catalogue, '/datasets', datasets, pages);
  const topicNames = TOPICS.map((t) => t.replace(/\s+/g, '-'));
  const byTopic = new Map<string, number[]>(topicNames.map((t) => [t, []]));
  for (const d of datasets) byTopic.get(rng.pick(topicNames))?.push(d);
  for (const [topic, items] of byTopic) {
    const first = b.html(`/topics/${topic}`);
    pages.push(first);
    b.link(topicsIndex, first);
    paginateHere(b, first, `/topics/${topic}`, items, pages);
  }
  // Keywords: every dataset carries two to four, each linking a paginated search listing (a dataset is listed on several).
  const keywords = WORDS.flatMap((w) => TOPICS.slice(0, 3).map((t) => `${w}-${t.split(' ')[0]}`));
  const byKeyword = new Map<string, number[]>();
  for (const d of datasets) {
    for (let k = 0, n = rng.int(2, 4); k < n; k++) {
      const kw = rng.pick(keywords);
      const list = byKeyword.get(kw) ?? [];
      if (list.includes(d)) continue;
      list.push(d);
      byKeyword.set(kw, list);
    }
  }
  for (const [kw, items] of byKeyword) {
    const first = b.html(`/datasets?keyword=${kw}`);
    pages.push(first);
    paginateHere(b, first, `/datasets?keyword=${kw}`, items, pages);
    for (const d of items) b.link(d, first);
  }
  for (let p = 0, k = Math.max(2, Math.round(nDatasets / 25)); p < k; p++) {
    const publisher = b.html(`/publishers/${rng.pick(LAST)}-agency-${p}`);
    pages.push(publisher);
    b.link(publishersIndex, publisher);
    for (let i = p; i < datasets.length; i += k) b.link(publisher, datasets[i] as number);
  }
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.02, duplicateRate: 0.03 });
}

/**
 * portal-like (tuning profile): a portal whose dataset pages carry a few RDF exports among many barren links
 * (revisions, embed, visualisation, comments, JSON API records, users' activity), paginated catalogue and topic
 * listings, `?format=` exports where RDF and JSON share one URL template, downloads behind "Go to resource" buttons.
 */
export const portalProfile: Profile = {
  name: 'portal-like',
  description: 'open-data portal: dataset pages with ?format= DCAT exports among many barren links (revisions, embeds, API JSON, activity), paginated listings, download buttons',
  sites: [{ host: 'data.portal-sim.org', name: 'Open-data portal (simulated)', shortName: 'portal', size: 10000, build: buildPortal }],
};
