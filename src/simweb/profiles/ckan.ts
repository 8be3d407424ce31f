// ckan-like (held out): a data portal with paginated listings, tag pages, DCAT `?format=` exports and download buttons.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { TOPICS, TOWNS, WORDS } from './words.ts';

const PER_PAGE = 20;
const TAGS = TOPICS.map((t) => t.replace(/ /g, '-'));

/** Links `items` from paginated listings `<path>?page=N` (or `<path>&page=N`), the first page linked from `from`. */
function paginate(b: SiteBuilder, from: number, path: string, items: readonly number[], pages: number[]): void {
  let prev = -1;
  const sep = path.includes('?') ? '&' : '?';
  for (let p = 0; p * PER_PAGE < items.length; p++) {
    const listing = b.html(`${path}${sep}page=${p + 1}`);
    pages.push(listing);
    if (prev < 0) b.link(from, listing);
    else {
      b.link(prev, listing, LinkStyle.next);
      b.link(listing, prev, LinkStyle.prev);
    }
    prev = listing;
    for (const item of items.slice(p * PER_PAGE, (p + 1) * PER_PAGE)) b.link(listing, item);
  }
}

function buildCkan(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const datasetIdx = b.html('/dataset');
  const groupIdx = b.html('/group');
  const orgIdx = b.html('/organization');
  const pages: number[] = [root, datasetIdx, groupIdx, orgIdx, b.html('/about')];
  for (const p of pages.slice(1)) b.link(root, p);
  const datasets: number[] = [];
  const byTag = new Map<string, number[]>();
  // A dataset costs about 6 documents: its page, 1–3 resource pages and their files, exports, the API record.
  for (let i = 0, k = Math.max(4, Math.round(size / 6)); i < k; i++) {
    const slug = `${rng.pick(TOWNS)}-${rng.pick(WORDS)}-${i + 1}`;
    const ds = b.html(`/dataset/${slug}`);
    datasets.push(ds);
    pages.push(ds);
    const tag = rng.pick(TAGS);
    byTag.set(tag, [...(byTag.get(tag) ?? []), ds]);
    // DCAT exports by a `format` parameter (ckanext-dcat): half the datasets, shown as format badges.
    if (rng.chance(0.5)) {
      b.link(ds, b.rdf(`/dataset/${slug}/export?format=rdf`, 'rdfxml', 'schema', rng.int(12, 40)), LinkStyle.formatBadge);
      if (rng.chance(0.6)) b.link(ds, b.rdf(`/dataset/${slug}/export?format=ttl`, 'turtle', 'schema', rng.int(12, 40)), LinkStyle.formatBadge);
    }
    b.link(ds, b.json(`/api/3/action/package_show?id=${slug}`));
    // Resources: an HTML page each, whose download button (only its classes tell) leads to the file.
    for (let r = 0, n = rng.int(1, 3); r < n; r++) {
      const id = `${(rng.int(0, 0xffffff) + 0x1000000).toString(16).slice(1)}-${i}-${r}`;
      const page = b.html(`/dataset/${slug}/resource/${id}`);
      pages.push(page);
      b.link(ds, page);
      b.link(page, ds);
      const x = rng.next();
      const file =
        x < 0.22
          ? b.rdf(`/dataset/${slug}/resource/${id}/download/data.ttl`, 'turtle', 'schema', rng.int(40, 300))
          : x < 0.3
            ? b.rdf(`/dataset/${slug}/resource/${id}/download/data.rdf`, 'rdfxml', 'schema', rng.int(40, 300), 'application/octet-stream')
            : b.binary(`/dataset/${slug}/resource/${id}/download/data.${rng.chance(0.7) ? 'csv' : 'zip'}`);
      b.link(page, file, LinkStyle.button);
    }
    if (rng.chance(0.3)) {
      const activity = b.html(`/dataset/activity/${slug}`);
      pages.push(activity);
      b.link(ds, activity);
    }
  }
  paginate(b, datasetIdx, '/dataset', datasets, pages);
  for (const [tag, list] of byTag) paginate(b, datasetIdx, `/dataset?tags=${tag}`, list, pages);
  for (let g = 0; g < 8; g++) {
    const group = b.html(`/group/${TAGS[g]}`);
    pages.push(group);
    b.link(groupIdx, group);
    paginate(b, group, `/group/${TAGS[g]}`, datasets.filter((_, i) => i % 8 === g), pages);
  }
  for (let o = 0; o < 6; o++) {
    const org = b.html(`/organization/${TOWNS[o]}-council`);
    pages.push(org);
    b.link(orgIdx, org);
    paginate(b, org, `/organization/${TOWNS[o]}-council`, datasets.filter((_, i) => i % 6 === o), pages);
  }
  b.link(root, b.rdf('/catalog.ttl', 'turtle', 'schema', rng.int(30, 80)), LinkStyle.altTurtle);
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.03 });
}

/** ckan-like: DCAT exports by `?format=`, download buttons, many listings over the same datasets. */
export const ckanProfile: Profile = {
  name: 'ckan-like',
  description: 'data portal: paginated dataset, tag, group and organisation listings; DCAT exports by ?format= shown as badges; resource pages with download buttons (30% RDF files, some as application/octet-stream)',
  sites: [{ host: 'data.ckan-sim.org', name: 'Open data portal (simulated)', shortName: 'ckan', size: 3000, build: buildCkan }],
};
