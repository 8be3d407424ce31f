// **respond** computes the response to one request on a simulated web (status, headers, bytes), without I/O.
import { Prng } from '../random/prng.ts';
import { generateTriples, serialize, subjectOf } from './render-rdf.ts';
import { padHtml } from './html-padding.ts';
import { renderCalendar, renderError, renderHtml, renderJson, renderRedirect, renderRobots, renderSitemap, renderXml } from './render-html.ts';
import type { SimDoc, SiteModel } from './types.ts';
import type { WebModel } from './web.ts';
import { docUrl, lookup } from './web.ts';

/** A computed response. */
export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The document asked for is a slow one. */
  slow: boolean;
  /** Host known to the web (false → the proxy answers 502). */
  knownHost: boolean;
}

/** Knobs of the responder. */
export interface RespondOptions {
  /** Overrides the Crawl-delay (seconds) of sites that declare one. Default: the profile's (0.01 s). */
  crawlDelay?: number;
  /** Pads every HTML page of status 200 to at least this many bytes with link-free markup (see html-padding.ts). Default 0 (none). */
  htmlPadBytes?: number;
}

const RDF_TYPES = ['application/rdf+xml', 'text/turtle', 'application/n-triples', 'application/ld+json', 'text/n3', 'application/x-turtle', 'application/n-quads', 'application/trig'];
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

/**
 * Whether content negotiation sends the RDF variant: yes unless `Accept` gives HTML a strictly
 * higher quality than every RDF type (no header, or only wildcards → RDF, as the truth assumes).
 */
function prefersRdf(accept: string | undefined): boolean {
  if (!accept) return true;
  let rdf = -1;
  let html = -1;
  let wildcard = -1;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) || 0 : 1;
    const t = type.trim();
    if (RDF_TYPES.includes(t)) rdf = Math.max(rdf, q);
    else if (HTML_TYPES.includes(t)) html = Math.max(html, q);
    else if (t === '*/*' || t === 'text/*' || t === 'application/*') wildcard = Math.max(wildcard, q);
  }
  if (rdf < 0 && html < 0) return true;
  if (rdf < 0) rdf = wildcard;
  return rdf > 0 && rdf >= html;
}

function text(status: number, contentType: string, body: string, extra: Record<string, string> = {}): SimResponse {
  return { status, headers: { 'content-type': contentType, ...extra }, body: Buffer.from(body, 'utf8'), slow: false, knownHost: true };
}

/** The bytes of a non-HTML, non-RDF file, with the right magic number for its type. */
function binaryBody(site: SiteModel, doc: SimDoc): Buffer {
  const rng = Prng.of(site.seed, 'bin', doc.dupOf ?? doc.id);
  const magic: Record<string, number[]> = {
    'image/jpeg': [0xff, 0xd8, 0xff, 0xe0],
    'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    'image/gif': [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
    'application/zip': [0x50, 0x4b, 0x03, 0x04],
    'application/gzip': [0x1f, 0x8b, 0x08, 0x00],
  };
  if (doc.contentType === 'application/pdf') return Buffer.from(`%PDF-1.4\n% simulated ${doc.path}\n${'0'.repeat(rng.int(100, 800))}\n%%EOF\n`, 'latin1');
  if (doc.contentType.startsWith('text/')) return Buffer.from(`@misc{doc${doc.id},\n  title = {${doc.path}}\n}\n`, 'utf8');
  const head = magic[doc.contentType] ?? [0];
  const bytes = Buffer.alloc(head.length + rng.int(200, 2000));
  bytes.set(head);
  for (let i = head.length; i < bytes.length; i++) bytes[i] = rng.int(0, 255);
  return bytes;
}

/** The RDF body of a document (duplicates render as their original). */
function renderRdf(site: SiteModel, doc: SimDoc): string {
  const original = doc.dupOf === undefined ? doc : (site.docs[doc.dupOf] as SimDoc);
  const vocab = original.vocab ?? 'foaf';
  const url = docUrl(site, original);
  const triples = generateTriples(Prng.of(site.seed, 'rdf', original.id).int(0, 2 ** 31), `http://${site.host}`, subjectOf(url, vocab), vocab, original.triples ?? 1);
  return serialize(triples, original.format ?? 'rdfxml');
}

/** Renders what the document at `doc` serves. */
function respondDoc(site: SiteModel, doc: SimDoc, accept: string | undefined, pad: (html: string) => string): SimResponse {
  let res: SimResponse;
  switch (doc.kind) {
    case 'html':
      res = text(200, doc.contentType, pad(site.calendar && doc.path.startsWith(`${site.calendar.path}?`) ? renderCalendar(site, calendarIndex(site, doc)) : renderHtml(site, doc)));
      break;
    case 'rdf':
      res = text(200, doc.contentType, renderRdf(site, doc));
      break;
    case 'binary':
      res = { status: 200, headers: { 'content-type': doc.contentType }, body: binaryBody(site, doc), slow: false, knownHost: true };
      break;
    case 'xml':
      res = text(200, doc.contentType, renderXml(site, doc));
      break;
    case 'json':
      res = text(200, doc.contentType, renderJson(site, doc));
      break;
    case 'sitemap':
      res = text(200, doc.contentType, renderSitemap(site));
      break;
    case 'redirect':
    case 'conneg': {
      const to = doc.kind === 'conneg' && !prefersRdf(accept) ? doc.htmlTarget : doc.target;
      const location = docUrl(site, site.docs[to ?? 0] as SimDoc);
      res = text(doc.status, doc.contentType, renderRedirect(location), { location, ...(doc.kind === 'conneg' ? { vary: 'Accept' } : {}) });
      break;
    }
    default:
      res = text(doc.status, doc.contentType, renderError(doc.status), doc.status === 503 ? { 'retry-after': '1' } : {});
  }
  res.slow = doc.slow === true;
  return res;
}

function calendarIndex(site: SiteModel, doc: SimDoc): number {
  const cal = site.calendar as NonNullable<SiteModel['calendar']>;
  const m = /month=(\d{4})-(\d{2})$/.exec(doc.path);
  return m ? (Number(m[1]) - Number(cal.firstMonth.slice(0, 4))) * 12 + Number(m[2]) - 1 : 0;
}

/** Computes the response for `GET url` with the given `Accept` header. */
export function respond(web: WebModel, url: string, accept?: string, options: RespondOptions = {}): SimResponse {
  const found = lookup(web, url);
  if (found.kind === 'unknown-host') {
    return { ...text(502, 'text/plain; charset=utf-8', `simweb: no such host in this web: ${url}\n`), knownHost: false };
  }
  const { site } = found;
  const path = new URL(url).pathname;
  if (path === '/robots.txt') return text(200, 'text/plain; charset=utf-8', renderRobots(site, options.crawlDelay));
  const pad = (html: string): string => (options.htmlPadBytes ? padHtml(html, options.htmlPadBytes) : html);
  if (found.kind === 'calendar') return text(200, 'text/html; charset=utf-8', pad(renderCalendar(site, found.month)));
  if (found.kind === 'missing') return text(404, 'text/html; charset=utf-8', renderError(404));
  return respondDoc(site, found.doc, accept, pad);
}
