// **analyseDocument** turns a fetch result into what the crawl keeps of it: the real type, the quads to store, the
// links to judge, and what went wrong (thesis §7 step 3; discovery beyond the thesis, issue 4).
import type { Quad } from '@rdfjs/types';
import type { ErrorCode } from '../errors.ts';
import { decodeText } from '../fetch/index.ts';
import type { FetchResult } from '../fetch/types.ts';
import { extractLinks, extractSitemapUrls } from '../links/index.ts';
import type { BadLink, LinkFeatures } from '../links/types.ts';
import { detectType, parseDocument } from '../rdf/index.ts';
import type { DocType } from '../relevance/types.ts';
import { dumpLinks, looksLikeSitemap, parseLinkHeader, SITEMAP_REL, voidAccessPoints } from './discovery.ts';
import { rdfLinksOf } from './rdf-links.ts';

export interface AnalysisOptions {
  followRdfLinks: boolean;
  maxLinksPerDoc: number;
  normalize: 'standard' | 'beebot';
}

export interface DocumentAnalysis {
  contentType: string | null;
  detectedType: DocType | null;
  /** RDF media type parsed, or `text/html+jsonld+rdfa…` for embedded data. */
  rdfFormat: string | null;
  /** Quads to store (empty when there are none or the document failed to parse: all or nothing). */
  quads: Quad[];
  /** What the parser produced before a fatal error (kept apart, never stored with good data). */
  partial: Quad[];
  error: ErrorCode | null;
  errorMessage: string | null;
  /** Links for the strategy to judge, from `linkSource`. */
  links: LinkFeatures[];
  linkSource: 'html' | 'rdf';
  /** Sitemap files listed by a sitemap index: queued as they are, without judging (they are not content). */
  sitemaps: LinkFeatures[];
  bad: BadLink[];
  /** Visible text of an HTML page ('' otherwise). */
  text: string;
  /** VoID access points stated in the document. */
  voidPoints: { dumps: string[]; endpoints: string[] };
}

/** Whether a frontier link points at a sitemap file (its body is read whatever its type). */
export function isSitemapLink(link: LinkFeatures | null): boolean {
  return link?.rel === SITEMAP_REL && link.tag !== 'sitemap';
}

export async function analyseDocument(result: FetchResult, link: LinkFeatures | null, opts: AnalysisOptions): Promise<DocumentAnalysis> {
  const a: DocumentAnalysis = {
    contentType: 'contentType' in result ? result.contentType : null,
    detectedType: null,
    rdfFormat: null,
    quads: [],
    partial: [],
    error: result.kind === 'ok' || result.kind === 'skipped' ? null : result.error,
    errorMessage: result.kind === 'failed' ? result.message : null,
    links: [],
    linkSource: 'html',
    sitemaps: [],
    bad: [],
    text: '',
    voidPoints: { dumps: [], endpoints: [] },
  };
  if (result.kind !== 'ok') return a;
  const base = result.finalUrl;
  const headerLinks = parseLinkHeader(result.headers.link, base);
  const detected = detectType(result.body, result.contentType, base);
  a.detectedType = detected.kind;

  if (detected.kind === 'other') {
    a.links = headerLinks;
    if (isSitemapLink(link) || looksLikeSitemap(result.body.subarray(0, 4096).toString('latin1'))) {
      const { text } = decodeText(result.body, result.contentType);
      const sitemap = extractSitemapUrls(text, base, { normalize: opts.normalize });
      const found = sitemap.urls.map((url): LinkFeatures => ({ url, tag: 'sitemap', anchor: '', title: '', type: '', rel: '', context: '' }));
      if (sitemap.kind === 'index') a.sitemaps = found.map((l) => ({ ...l, tag: 'seed', rel: SITEMAP_REL }));
      else a.links.push(...found.slice(0, Math.max(0, opts.maxLinksPerDoc * 100))); // sitemaps list many: 100× the page cap
      a.bad = sitemap.bad;
    }
    return a;
  }

  const { text } = decodeText(result.body, result.contentType);
  const parsed = await parseDocument(text, detected, base);
  if (detected.kind === 'rdf') {
    a.rdfFormat = detected.mediaType;
    a.linkSource = 'rdf';
    if (parsed.error) {
      a.error = parsed.error.code;
      a.errorMessage = parsed.error.message;
      a.partial = parsed.partial;
      a.links = headerLinks;
      return a;
    }
    a.quads = parsed.quads;
    a.voidPoints = voidAccessPoints(parsed.quads);
    a.links = [
      ...headerLinks,
      ...dumpLinks(a.voidPoints.dumps, base),
      ...(opts.followRdfLinks ? rdfLinksOf(parsed.quads, base, opts.maxLinksPerDoc) : []),
    ];
    return a;
  }

  // HTML: links for the strategy, embedded RDF stored; a broken embedded block leaves the page itself fine.
  const extracted = extractLinks(text, base, { maxLinks: opts.maxLinksPerDoc, normalize: opts.normalize });
  a.links = [...headerLinks, ...extracted.links];
  a.bad = extracted.bad;
  a.text = extracted.text;
  a.quads = parsed.quads;
  if (parsed.embedded && parsed.embedded.length > 0) a.rdfFormat = `text/html+${parsed.embedded.join('+')}`;
  if (parsed.error) a.errorMessage = parsed.error.message;
  else if (parsed.problems && parsed.problems.length > 0) a.errorMessage = parsed.problems.map((p) => `${p.source ?? 'embedded'}: ${p.message}`).join('; ');
  a.voidPoints = voidAccessPoints(parsed.quads);
  return a;
}
