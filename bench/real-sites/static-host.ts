// **staticAnswer** decides what a static host (GitHub Pages' rules) answers for a URL of a laid-out site: a file
// with the content type of its extension, a redirect (http → https, a folder without its slash), or 404.
import { existsSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { RealSite } from './layout.ts';

/** Content types by extension, as mime-db (which GitHub Pages uses) gives them. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml',
  '.ttl': 'text/turtle; charset=utf-8',
  '.nt': 'application/n-triples',
  '.nq': 'application/n-quads',
  '.trig': 'application/trig',
  '.n3': 'text/n3',
  '.rdf': 'application/rdf+xml',
  '.owl': 'application/rdf+xml',
  '.jsonld': 'application/ld+json',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml',
  '.csv': 'text/csv; charset=utf-8',
  '.tsv': 'text/tab-separated-values',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.rq': 'application/sparql-query',
  '.srx': 'application/sparql-results+xml',
  '.srj': 'application/sparql-results+json',
  '.yaml': 'text/yaml',
  '.yml': 'text/yaml',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
};

function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** A site laid out in a folder. */
export interface ServedSite {
  site: RealSite;
  dir: string;
}

export type StaticAnswer =
  | { kind: 'file'; site: ServedSite; rel: string; file: string; contentType: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found'; site: ServedSite | null };

/** The site serving `url` (its host and the longest path prefix), or null. */
function siteFor(sites: readonly ServedSite[], url: URL): ServedSite | null {
  const host = url.hostname.toLowerCase();
  let best: ServedSite | null = null;
  for (const s of sites) {
    if (!s.site.hosts.includes(host)) continue;
    const p = s.site.path;
    if (!(url.pathname.startsWith(p) || `${url.pathname}/` === p)) continue;
    if (best === null || p.length > best.site.path.length) best = s;
  }
  return best;
}

/**
 * What a static host answers for `url`: an https site answers http with a 301 to https (GitHub Pages); a folder is
 * served by its index.html, and a folder named without its trailing slash is redirected to it; `/x` is served by
 * `x.html` when no `x` exists; anything else is 404.
 */
export function staticAnswer(sites: readonly ServedSite[], url: URL): StaticAnswer {
  const served = siteFor(sites, url);
  if (served === null) return { kind: 'not-found', site: null };
  if (served.site.scheme === 'https' && url.protocol === 'http:') {
    return { kind: 'redirect', location: `https://${url.host}${url.pathname}${url.search}` };
  }
  if (`${url.pathname}/` === served.site.path) return { kind: 'redirect', location: `${url.origin}${served.site.path}${url.search}` };
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname.slice(served.site.path.length));
  } catch {
    return { kind: 'not-found', site: served };
  }
  if (rel.split('/').some((seg) => seg === '..' || seg === '.') || rel.includes('\0')) return { kind: 'not-found', site: served };
  const full = join(served.dir, rel);
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  else if (isDir(full)) return { kind: 'redirect', location: `${url.origin}${url.pathname}/${url.search}` };
  else if (!isFile(full) && isFile(`${full}.html`)) rel += '.html';
  const file = join(served.dir, rel);
  if (!isFile(file) || rel.startsWith('.commit') || rel.startsWith('.missing') || rel.startsWith('.oracle')) return { kind: 'not-found', site: served };
  return { kind: 'file', site: served, rel, file, contentType: contentTypeOf(file) };
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function isFile(p: string): boolean {
  return existsSync(p) && statSync(p).isFile();
}
