// Renders HTML pages (links in the styles of thesis §3, embedded JSON-LD/RDFa) and the small non-RDF bodies.
import { Prng } from '../random/prng.ts';
import { TOPICS, titleOf, WORDS } from './profiles/words.ts';
import { embeddedJsonLd } from './render-rdf.ts';
import { linkStyle, linkTarget } from './site-graph.ts';
import type { SimDoc, SiteModel } from './types.ts';
import { LinkStyle } from './types.ts';
import { calendarLinks, docUrl, externalLinks } from './web.ts';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Human title of a document, from its path: `/members/12-mary-walsh` → `12 Mary Walsh`. */
function titleFor(site: SiteModel, doc: SimDoc | undefined): string {
  if (!doc || doc.path === '/') return site.name;
  const [path, query] = doc.path.split('?') as [string, string | undefined];
  const seg = path.split('/').filter((s) => s !== '').pop() ?? site.shortName;
  return query ? `${titleOf(seg)} (${query.replace(/=/g, ' ')})` : titleOf(seg);
}

function sentence(rng: Prng): string {
  const words = Array.from({ length: rng.int(6, 14) }, () => rng.pick(rng.chance(0.2) ? TOPICS : WORDS));
  const s = words.join(' ');
  return `${(s[0] ?? '').toUpperCase()}${s.slice(1)}.`;
}

/** Renders one encoded link: head elements go to `head`, body markup is returned. */
function renderLink(site: SiteModel, encoded: number, head: string[], rng: Prng): string {
  const target = site.docs[linkTarget(encoded)];
  const href = esc(target ? target.path : '/');
  const title = esc(titleFor(site, target));
  const context = esc(sentence(rng));
  switch (linkStyle(encoded)) {
    case LinkStyle.rdfAnchor:
      return `<li><a href="${href}">RDF</a> ${context}</li>`;
    case LinkStyle.altRdfXml:
      head.push(`<link rel="alternate" type="application/rdf+xml" title="RDF" href="${href}">`);
      return `<li>Also available as <a href="${href}">RDF</a></li>`;
    case LinkStyle.altTurtle:
      head.push(`<link rel="alternate" type="text/turtle" href="${href}">`);
      return '';
    case LinkStyle.altJsonLd:
      head.push(`<link rel="alternate" type="application/ld+json" href="${href}">`);
      return '';
    case LinkStyle.altJson:
      head.push(`<link rel="alternate" type="application/json" title="JSON" href="${href}">`);
      return `<li>Also available as <a href="${href}">JSON</a></li>`;
    case LinkStyle.altXml:
      head.push(`<link rel="alternate" type="application/xml" title="XML" href="${href}">`);
      return `<li>Also available as <a href="${href}">XML</a></li>`;
    case LinkStyle.profile:
      return `<li><a href="${href}">Personal profile</a> ${context}</li>`;
    case LinkStyle.iframe:
      return `<li><iframe src="${href}" title="${title}"></iframe></li>`;
    case LinkStyle.next:
      return `<li><a href="${href}" rel="next">next &raquo;</a></li>`;
    case LinkStyle.prev:
      return `<li><a href="${href}" rel="prev">&laquo; previous</a></li>`;
    case LinkStyle.download: {
      const ext = /\.([a-z0-9]+)$/.exec(target?.path ?? '')?.[1]?.toUpperCase() ?? 'file';
      return `<li><a href="${href}" title="Download (${ext})">Download</a> ${context}</li>`;
    }
    case LinkStyle.button:
      return `<li class="resource-item"><a class="btn btn-primary resource-url" href="${href}">Go to resource</a> ${context}</li>`;
    case LinkStyle.formatBadge: {
      const path = target?.path ?? '';
      const fmt = /[?&]format=([a-z0-9-]+)/.exec(path)?.[1] ?? /\.([a-z0-9]+)$/.exec(path)?.[1] ?? 'data';
      return `<li><a href="${href}"><span class="format-label" data-format="${esc(fmt)}">${esc(fmt.toUpperCase())}</span></a> ${context}</li>`;
    }
    case LinkStyle.typedRdf:
      return `<li><a href="${href}" type="application/rdf+xml" title="RDF/XML">${title}</a> ${context}</li>`;
    default:
      return `<li><a href="${href}">${title}</a> ${context}</li>`;
  }
}

/** Renders an HTML page of a site (duplicates render as their original). */
export function renderHtml(site: SiteModel, doc: SimDoc): string {
  const original = doc.dupOf === undefined ? doc : (site.docs[doc.dupOf] as SimDoc);
  const rng = Prng.of(site.seed, 'html', original.id);
  const head: string[] = [];
  const items = original.links.map((l) => renderLink(site, l, head, rng)).filter((s) => s !== '');
  const external = externalLinks(site, original).map((u, i) => `<li><a href="${esc(u)}">Partner site ${i + 1}</a> ${esc(sentence(rng))}</li>`);
  const title = esc(titleFor(site, original));
  const url = docUrl(site, original);
  let main = `<h1>${title}</h1>\n<p>${esc(sentence(rng))} ${esc(sentence(rng))}</p>`;
  if (original.embed === 'jsonld') {
    head.push(`<script type="application/ld+json">${embeddedJsonLd(rng.int(0, 2 ** 31), `${url}#product`, original.triples ?? 5)}</script>`);
  } else if (original.embed === 'rdfa') {
    main = renderRdfa(rng, title, original.triples ?? 3);
  }
  return page(title, head, main, [...items, ...external]);
}

/** An RDFa BlogPosting: `count` − 1 properties plus the type (the parser may add `rdfa:usesVocabulary`). */
function renderRdfa(rng: Prng, title: string, count: number): string {
  const props: Array<[string, string, string]> = [
    ['h1', 'headline', title],
    ['span', 'author', `${rng.pick(WORDS)} ${rng.pick(WORDS)}`],
    ['time', 'datePublished', `20${rng.int(10, 23)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`],
    ['span', 'keywords', rng.pick(TOPICS)],
    ['p', 'description', sentence(rng)],
  ];
  const inner = props
    .slice(0, Math.max(0, count - 1))
    .map(([tag, prop, text]) => `<${tag} property="${prop}">${esc(text)}</${tag}>`)
    .join('\n');
  return `<article vocab="http://schema.org/" typeof="BlogPosting" resource="#post">\n${inner}\n</article>`;
}

/** A calendar month page: previous, home, next (the trap never ends). */
export function renderCalendar(site: SiteModel, month: number): string {
  const links = calendarLinks(site, month);
  const items = links.map((u) => {
    const rel = u === site.startUrl ? 'Home' : links.indexOf(u) === links.length - 1 ? 'next month &raquo;' : '&laquo; previous month';
    return `<li><a href="${esc(new URL(u).pathname + new URL(u).search)}">${rel}</a></li>`;
  });
  const month0 = new URL(links[links.length - 1] as string).search.slice(7);
  return page(`Events calendar before ${month0}`, [], '<h1>Events</h1><p>No events this month.</p>', items);
}

function page(title: string, head: string[], main: string, items: string[]): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
${head.join('\n')}
</head>
<body>
${main}
<ul>
${items.join('\n')}
</ul>
</body>
</html>
`;
}

/** Body of an error page. */
export function renderError(status: number): string {
  return page(`${status}`, [], `<h1>${status}</h1><p>The page could not be served.</p>`, []);
}

/** Body of a redirect. */
export function renderRedirect(location: string): string {
  return page('Moved', [], `<p>See <a href="${esc(location)}">${esc(location)}</a>.</p>`, []);
}

/** Plain XML (RSS or API output) that is not RDF. */
export function renderXml(site: SiteModel, doc: SimDoc): string {
  const rng = Prng.of(site.seed, 'xml', doc.id);
  return `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>${esc(titleFor(site, doc))}</title><description>${esc(sentence(rng))}</description></channel></rss>\n`;
}

/** Plain JSON that is not JSON-LD. */
export function renderJson(site: SiteModel, doc: SimDoc): string {
  const rng = Prng.of(site.seed, 'json', doc.id);
  return `${JSON.stringify({ id: doc.id, title: titleFor(site, doc), summary: sentence(rng) })}\n`;
}

/** The sitemap: every 200 HTML page not under a disallowed path. */
export function renderSitemap(site: SiteModel): string {
  const urls = site.docs
    .filter((d) => d.kind === 'html' && d.status === 200 && !site.robots.disallow.some((p) => d.path.startsWith(p)))
    .slice(0, 50000)
    .map((d) => `<url><loc>${esc(docUrl(site, d))}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: disallowed paths, Crawl-delay and Sitemap as the site declares. */
export function renderRobots(site: SiteModel, crawlDelay?: number): string {
  const lines = ['User-agent: *', ...[...new Set(site.robots.disallow)].map((d) => `Disallow: ${d}`)];
  if (site.robots.disallow.length === 0) lines.push('Disallow:');
  const delay = crawlDelay ?? site.robots.crawlDelay;
  if (site.robots.crawlDelay !== undefined && delay !== undefined) lines.push(`Crawl-delay: ${delay}`);
  if (site.robots.sitemap) lines.push('', `Sitemap: http://${site.host}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}
