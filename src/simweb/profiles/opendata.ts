// opendata-like: a city open-data portal in the style of Socrata / DKAN / data.gov.uk / the EU data portal (held out).
//
// Written blind (from general knowledge of such portals, without reading the other data-portal profiles or
// any strategy), and committed before any strategy other than bfs and the oracle was run on it. What it models:
// - a catalogue search `/browse` with facets (category, tags, publisher, format), two sort orders and pagination, and
//   two-facet refinements from the category pages: many near-duplicate listing URLs that only lead to dataset pages;
// - dataset landing pages `/<category>/<title-slug>/<4x4 id>` (Socrata's scheme), also reached by the short form
//   `/d/<id>` that answers 301 (used by "related datasets" and news);
// - for tabular datasets a data grid page, a JSON API endpoint `/resource/<id>.json` and exports
//   `/api/views/<id>/rows.csv|json|xml|xlsx` shown as format badges; some also export `rows.rdf` (RDF/XML);
// - for other datasets attached files (PDF, zipped shapefiles, spreadsheets), a few of them RDF dumps (`.ttl`, `.rdf`,
//   `.nt`), some of those served as `application/octet-stream` from blob storage;
// - DCAT-AP metadata per dataset for most datasets (not for those harvested from elsewhere): `/api/dcat/<id>.rdf`
//   (`<link rel=alternate>` and an "RDF" anchor), `.ttl` (sometimes served as `text/plain`) and `.jsonld` (served as
//   `application/json`), shown as format badges; a catalogue-wide DCAT dump `/catalog.xml` served as `application/xml`
//   beside the plain-JSON `/data.json`;
// - publisher pages, visualisation pages (with an embed iframe), news, help and developer pages.
// RDF is a small share of the links: a landing page links about 15 URLs of the site, 0–4 of them RDF; listings none.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle, type SimDoc } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { TOPICS, WORDS } from './words.ts';

const CATEGORIES = ['transportation', 'public-safety', 'health', 'environment', 'housing', 'education', 'finance', 'city-government', 'recreation', 'economy', 'demographics', 'infrastructure'];
const TAGS = ['budget', 'parking', 'bus', 'crime', 'permits', 'air-quality', 'trees', 'schools', 'elections', 'census', 'zoning', 'water', 'waste', 'bike', 'traffic', '311', 'licenses', 'restaurants', 'parks', 'libraries', 'energy', 'noise', 'flood', 'property', 'salaries', 'contracts', 'inspections', 'hospitals', 'sidewalks', 'covid-19'];
const PUBLISHERS = ['department-of-transportation', 'police-department', 'public-health', 'parks-and-recreation', 'finance-department', 'planning-department', 'water-utility', 'city-clerk', 'fire-department', 'housing-authority', 'office-of-budget', 'environmental-services', 'public-library', 'economic-development', 'information-technology', 'elections-office', 'public-works', 'human-resources'];
const HELP = ['getting-started', 'search-tips', 'download-data', 'using-the-api', 'dcat-metadata', 'visualisations', 'licences', 'data-quality', 'suggest-a-dataset', 'accessibility', 'glossary', 'faq'];
const ID_CHARS = 'abcdefghijkmnpqrstuvwxyz23456789';
/** Datasets per listing page. */
const PER_PAGE = 10;

interface Dataset {
  id: string;
  category: string;
  slug: string;
  publisher: string;
  tags: string[];
  tabular: boolean;
  /** Formats its files and exports come in (the `format` facet). */
  formats: Set<string>;
  landing: number;
}

function buildOpendata(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const pages: number[] = [root];
  const page = (path: string): number => {
    const id = b.html(path);
    pages.push(id);
    return id;
  };
  const taken = new Set<string>();
  const newId = (): string => {
    for (;;) {
      const s = Array.from({ length: 8 }, () => rng.pick([...ID_CHARS])).join('');
      const id = `${s.slice(0, 4)}-${s.slice(4)}`;
      if (!taken.has(id)) {
        taken.add(id);
        return id;
      }
    }
  };
  const nDatasets = Math.max(12, Math.round(size * 0.1));
  const publishers = PUBLISHERS.slice(0, Math.max(4, Math.min(PUBLISHERS.length, Math.round(nDatasets / 30))));

  // Datasets first (landing pages only), so that listings, news and related links can point at them.
  const datasets: Dataset[] = [];
  for (let i = 0; i < nDatasets; i++) {
    const category = rng.pick(CATEGORIES);
    const slug = `${rng.pick(TOPICS).replace(/ /g, '-')}-${rng.pick(WORDS)}-${i + 1}`;
    const tags = [...new Set(Array.from({ length: rng.int(2, 4) }, () => rng.pick(TAGS)))];
    const id = newId();
    datasets.push({ id, category, slug, publisher: rng.pick(publishers), tags, tabular: rng.chance(0.65), formats: new Set(), landing: page(`/${category}/${slug}/${id}`) });
  }
  const shortLinks = new Map<string, number>();
  /** A link to a dataset as "related datasets" and news write it: half by the short form `/d/<id>`, a 301. */
  const linkDataset = (from: number, d: Dataset): void => {
    if (!rng.chance(0.5)) {
      b.link(from, d.landing);
      return;
    }
    let short = shortLinks.get(d.id);
    if (short === undefined) {
      short = b.redirect(`/d/${d.id}`, d.landing, 301);
      shortLinks.set(d.id, short);
    }
    b.link(from, short);
  };

  // Site navigation.
  const browse = page('/browse');
  const publishersIdx = page('/publishers');
  const newsIdx = page('/news');
  const help = page('/help');
  const developers = page('/developers');
  const about = page('/about');
  for (const p of [browse, publishersIdx, newsIdx, help, developers, about]) b.link(root, p);

  // Each dataset's own documents.
  for (const d of datasets) {
    const base = `/${d.category}/${d.slug}/${d.id}`;
    const L = d.landing;
    b.link(L, root);
    const exports: Array<[number, string]> = [];
    if (d.tabular) {
      for (const ext of ['csv', 'json', 'xml']) exports.push([ext === 'csv' ? b.binary(`/api/views/${d.id}/rows.csv`) : ext === 'json' ? b.json(`/api/views/${d.id}/rows.json`) : b.xml(`/api/views/${d.id}/rows.xml`), ext]);
      if (rng.chance(0.6)) exports.push([b.binary(`/api/views/${d.id}/rows.xlsx`), 'xlsx']);
      // The legacy RDF export (RDF/XML of the rows) on some tabular datasets.
      if (rng.chance(0.15)) exports.push([b.rdf(`/api/views/${d.id}/rows.rdf`, 'rdfxml', 'council', rng.int(40, 240)), 'rdf']);
      for (const [, f] of exports) d.formats.add(f);
    }
    const files: Array<[number, string]> = [];
    const nFiles = d.tabular ? (rng.chance(0.3) ? 1 : 0) : rng.int(1, 3);
    for (let f = 0; f < nFiles; f++) {
      const name = `${d.slug.split('-').slice(0, 2).join('-')}-${f + 1}`;
      if (!d.tabular && rng.chance(0.12)) {
        // An RDF dump attached as a file; blob storage serves some as application/octet-stream.
        const [ext, format] = rng.pick([['ttl', 'turtle'], ['rdf', 'rdfxml'], ['nt', 'ntriples']] as const);
        const generic = rng.chance(0.4) ? 'application/octet-stream' : undefined;
        files.push([b.rdf(`/download/${d.id}/${name}.${ext}`, format, 'council', rng.int(60, 400), generic), 'rdf']);
        continue;
      }
      const ext = d.tabular ? 'pdf' : rng.pick(['pdf', 'pdf', 'zip', 'xlsx', 'csv', 'docx']);
      files.push([b.binary(`/download/${d.id}/${name}.${ext}`), ext]);
    }
    for (const [, f] of files) d.formats.add(f);

    // Landing page, in page order: views, exports and API, files, metadata; then related datasets, breadcrumbs, tags, publisher.
    if (d.tabular) {
      const grid = page(`${base}/data`);
      b.link(L, grid);
      b.link(grid, L);
      for (const [doc, f] of exports) if (f === 'csv' || f === 'json') b.link(grid, doc, LinkStyle.formatBadge);
    }
    if (rng.chance(0.3)) {
      const vid = newId();
      const viz = page(`/visualizations/${vid}`);
      const embed = page(`/visualizations/${vid}/embed`);
      b.link(viz, L);
      b.link(viz, embed, LinkStyle.iframe);
      b.link(embed, viz);
      b.link(L, viz);
    }
    for (const [doc] of exports) b.link(L, doc, LinkStyle.formatBadge);
    if (d.tabular) b.link(L, b.json(`/resource/${d.id}.json`));
    for (const [doc] of files) b.link(L, doc, LinkStyle.download);
    if (rng.chance(0.7)) {
      b.link(L, b.rdf(`/api/dcat/${d.id}.rdf`, 'rdfxml', 'archive', rng.int(18, 45)), LinkStyle.altRdfXml);
      if (rng.chance(0.7)) b.link(L, b.rdf(`/api/dcat/${d.id}.ttl`, 'turtle', 'archive', rng.int(18, 45), rng.chance(0.25) ? 'text/plain; charset=utf-8' : undefined), LinkStyle.formatBadge);
      if (rng.chance(0.4)) b.link(L, b.rdf(`/api/dcat/${d.id}.jsonld`, 'jsonld', 'archive', rng.int(18, 45), 'application/json'), LinkStyle.formatBadge);
    } else {
      // Harvested from another portal: a "Source" link out instead of the metadata exports.
      (b.docs[L] as SimDoc).external += 1;
    }
    (b.docs[L] as SimDoc).external += rng.int(0, 2); // share buttons
  }

  // Related datasets (same category when possible), three per landing page.
  const byCategory = new Map<string, Dataset[]>();
  for (const d of datasets) {
    const list = byCategory.get(d.category);
    if (list) list.push(d);
    else byCategory.set(d.category, [d]);
  }
  for (const d of datasets) {
    const pool = (byCategory.get(d.category) ?? []).length > 3 ? (byCategory.get(d.category) as Dataset[]) : datasets;
    for (let k = 0; k < 3; k++) {
      const other = rng.pick(pool);
      if (other !== d) linkDataset(d.landing, other);
    }
  }

  // Catalogue search: paginated listings with a facet sidebar.
  const listingPath = (query: string, p: number): string => (query === '' ? (p === 1 ? '/browse' : `/browse?page=${p}`) : p === 1 ? `/browse?${query}` : `/browse?${query}&page=${p}`);
  const firstPages = new Map<string, number>();
  const listing = (query: string, items: readonly Dataset[], sidebar: (pg: number) => void): number => {
    const cached = firstPages.get(query);
    if (cached !== undefined) return cached;
    const nPages = Math.max(1, Math.ceil(items.length / PER_PAGE));
    const ids: number[] = [];
    for (let p = 1; p <= nPages; p++) ids.push(query === '' && p === 1 ? browse : page(listingPath(query, p)));
    firstPages.set(query, ids[0] as number);
    ids.forEach((pg, i) => {
      for (const d of items.slice(i * PER_PAGE, (i + 1) * PER_PAGE)) b.link(pg, d.landing);
      if (i > 0) b.link(pg, ids[i - 1] as number, LinkStyle.prev);
      if (i + 1 < ids.length) b.link(pg, ids[i + 1] as number, LinkStyle.next);
      // Page numbers around the current one, and the last page.
      for (let j = Math.max(0, i - 2); j <= Math.min(ids.length - 1, i + 2); j++) if (j !== i && Math.abs(j - i) > 1) b.link(pg, ids[j] as number);
      if (ids.length > 4 && i < ids.length - 3) b.link(pg, ids[ids.length - 1] as number);
      b.link(pg, root);
    });
    for (const pg of ids) sidebar(pg);
    return ids[0] as number;
  };
  const facetValues = <T>(key: (d: Dataset) => readonly T[], items: readonly Dataset[]): Map<T, Dataset[]> => {
    const m = new Map<T, Dataset[]>();
    for (const d of items) {
      for (const v of key(d)) {
        const list = m.get(v);
        if (list) list.push(d);
        else m.set(v, [d]);
      }
    }
    return m;
  };
  const byTag = facetValues((d) => d.tags, datasets);
  const byPublisher = facetValues((d) => [d.publisher], datasets);
  const byFormat = facetValues((d) => [...d.formats], datasets);
  const top = <T>(m: Map<T, Dataset[]>, n: number): T[] => [...m.entries()].sort((x, y) => y[1].length - x[1].length).slice(0, n).map(([k]) => k);
  const alpha = [...datasets].sort((x, y) => (x.slug < y.slug ? -1 : 1));
  const newest = [...datasets].reverse();

  // Single-facet listings (created on first use by a sidebar).
  const tagListing = (t: string): number => listing(`tags=${t}`, byTag.get(t) ?? [], () => {});
  const publisherListing = (p: string): number => listing(`publisher=${p}`, byPublisher.get(p) ?? [], () => {});
  const formatListing = (f: string): number => listing(`format=${f}`, byFormat.get(f) ?? [], () => {});
  const sortLinks = (pg: number, query: string, items: readonly Dataset[]): void => {
    const inItems = new Set(items);
    for (const [sort, order] of [['newest', newest.filter((d) => inItems.has(d))], ['alpha', alpha.filter((d) => inItems.has(d))]] as const) {
      b.link(pg, listing(query === '' ? `sortby=${sort}` : `${query}&sortby=${sort}`, order, () => {}));
    }
  };
  const categoryListing = (c: string): number => {
    const made = firstPages.get(`category=${c}`);
    if (made !== undefined) return made;
    const items = byCategory.get(c) ?? [];
    const inCat = { tags: facetValues((d) => d.tags, items), formats: facetValues((d) => [...d.formats], items) };
    return listing(`category=${c}`, items, (pg) => {
      b.link(pg, browse); // "clear filters"
      for (const t of top(inCat.tags, 5)) b.link(pg, listing(`category=${c}&tags=${t}`, inCat.tags.get(t) ?? [], () => {}));
      for (const f of top(inCat.formats, 4)) b.link(pg, listing(`category=${c}&format=${f}`, inCat.formats.get(f) ?? [], () => {}));
      if (pg === firstPages.get(`category=${c}`)) sortLinks(pg, `category=${c}`, items);
    });
  };
  listing('', datasets, (pg) => {
    for (const c of CATEGORIES) if (byCategory.has(c)) b.link(pg, categoryListing(c));
    for (const t of top(byTag, 10)) b.link(pg, tagListing(t));
    for (const f of top(byFormat, 6)) b.link(pg, formatListing(f));
    for (const p of top(byPublisher, 6)) b.link(pg, publisherListing(p));
    if (pg === browse) sortLinks(pg, '', datasets);
  });
  // Every dataset's breadcrumbs and tags lead to their listings; the home page to the categories and featured data.
  for (const d of datasets) {
    b.link(d.landing, categoryListing(d.category));
    for (const t of d.tags) b.link(d.landing, tagListing(t));
  }
  for (const c of CATEGORIES) if (byCategory.has(c)) b.link(root, categoryListing(c));
  for (let i = 0; i < Math.min(8, datasets.length); i++) b.link(root, rng.pick(datasets).landing);

  // Publishers: a page each, listing their first datasets and their facet listing.
  for (const p of publishers) {
    const pub = page(`/publishers/${p}`);
    b.link(publishersIdx, pub);
    b.link(pub, publisherListing(p));
    for (const d of (byPublisher.get(p) ?? []).slice(0, 12)) b.link(pub, d.landing);
    (b.docs[pub] as SimDoc).external = 1;
  }
  for (const d of datasets) b.link(d.landing, b.byPath.get(`/publishers/${d.publisher}`) as number);

  // News, help, developers; the catalogue-wide DCAT dump and the DCAT-US JSON.
  let newsPage = newsIdx;
  for (let i = 0, k = Math.max(4, Math.round(nDatasets * 0.08)); i < k; i++) {
    if (i > 0 && i % 15 === 0) {
      const next = page(`/news?page=${i / 15 + 1}`);
      b.link(newsPage, next, LinkStyle.next);
      b.link(next, newsPage, LinkStyle.prev);
      newsPage = next;
    }
    const article = page(`/news/${2019 + (i % 6)}/${rng.pick(WORDS)}-${rng.pick(WORDS)}-${i + 1}`);
    b.link(newsPage, article);
    b.link(article, newsIdx);
    for (let j = rng.int(1, 3); j > 0; j--) linkDataset(article, rng.pick(datasets));
  }
  for (const h of HELP) {
    const p = page(`/help/${h}`);
    b.link(help, p);
    b.link(p, help);
  }
  const dump = b.rdf('/catalog.xml', 'rdfxml', 'archive', Math.min(3000, nDatasets * 4), 'application/xml');
  const dataJson = b.json('/data.json');
  b.link(developers, dump, LinkStyle.download);
  b.link(developers, dataJson);
  for (let i = 0; i < 3; i++) {
    const d = rng.pick(datasets);
    if (d.tabular) b.link(developers, b.byPath.get(`/resource/${d.id}.json`) as number);
  }
  b.link(root, dump);
  b.link(root, dataJson);
  addNoise(b, rng, pages, { errorRate: 0.05, binaryRate: 0.02, duplicateRate: 0.01 });
}

/** opendata-like: a Socrata/DKAN-style city portal; DCAT per dataset among many non-RDF links (held out). */
export const opendataProfile: Profile = {
  name: 'opendata-like',
  description:
    'city open-data portal (Socrata/DKAN style): faceted, sorted, paginated /browse listings; dataset pages with CSV/JSON/XML/XLSX exports, a JSON API, files (a few RDF dumps, some as octet-stream), DCAT-AP .rdf/.ttl/.jsonld (some with generic types), /d/<id> 301s, a DCAT catalogue dump as application/xml',
  sites: [{ host: 'data.riverton-sim.gov', name: 'Riverton Open Data (simulated)', shortName: 'opendata', size: 6000, build: buildOpendata }],
};
