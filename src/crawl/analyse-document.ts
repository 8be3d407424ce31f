// **analyseDocument** turns a fetch result into what the crawl keeps of it: the real type, the quads to store, the
// links to judge, and what went wrong (thesis §7 step 3; discovery beyond the thesis).
import type { Quad } from '@rdfjs/types';
import type { ErrorCode } from '../errors.ts';
import { chooseCharset, decodeChunks, decodeText } from '../fetch/index.ts';
import type { FetchResult } from '../fetch/types.ts';
import { extractLinks, extractSitemapUrls } from '../links/index.ts';
import type { BadLink, LinkFeatures } from '../links/types.ts';
import { type DocumentWriter, detectType, MAX_PARTIAL_QUADS, type ParseOptions, type ParseRecovery, pageScanFor, parseDocument, parseRdfDocumentInto } from '../rdf/index.ts';
import type { DocType } from '../relevance/types.ts';
import { jsonLdContextLink } from './context-link.ts';
import { dumpLinks, looksLikeSitemap, parseLinkHeader, SITEMAP_REL, VoidCollector, voidAccessPoints } from './discovery.ts';
import { RdfLinkCollector } from './rdf-links.ts';

export interface AnalysisOptions {
  followRdfLinks: boolean;
  /**
   * Whether the page's visible text is wanted (`DocumentAnalysis.text`): only strategies that observe pages read it
   * (building it for every page was allocation nobody used). Default: true.
   */
  pageText?: boolean;
  maxLinksPerDoc: number;
  normalize: 'standard' | 'beebot';
  /**
   * How documents are parsed: where JSON-LD remote contexts come from (the crawl's context fetcher, or none with
   * `--no-remote-contexts`), the JSON-LD fast path. Default: the parser's defaults (no remote context is fetched).
   */
  parse?: ParseOptions;
}

/** Where a document's quads go as they are parsed: the store's DocumentWriter, or a parse worker's ChunkWriter. */
export interface DocumentSink {
  add(q: Quad): void;
  /** Resolves when what was handed over is written (rejects, RDFSCOUT_STORE_FAILED, when it could not be). */
  drained(): Promise<void>;
  /** Forgets every quad received (the document is parsed again from its start). */
  restart(): Promise<void>;
}

export interface DocumentAnalysis<W extends DocumentSink = DocumentWriter> {
  contentType: string | null;
  detectedType: DocType | null;
  /** RDF media type parsed, or `text/html+jsonld+rdfa…` for embedded data. */
  rdfFormat: string | null;
  /** Quads the document yielded (0 when there are none or it failed to parse: all or nothing). */
  triples: number;
  /**
   * Where the quads went as they were parsed: the writer to stage with the record, or, when the
   * document failed, whose spilled chunks to discard. Null when nothing was opened, or the graph is stored already.
   */
  document: W | null;
  /** The document's graph is stored already (or being stored by another fetch): its quads were counted, not kept. */
  storedAlready: boolean;
  /** The first MAX_PARTIAL_QUADS quads the parser produced before a fatal error (kept apart, never stored with good data). */
  partial: Quad[];
  /** How many quads the parser produced before that error. */
  partialCount: number;
  error: ErrorCode | null;
  errorMessage: string | null;
  /** What a lenient parse dropped or repaired (null: nothing, or nothing parsed). */
  recovery: ParseRecovery | null;
  /** Links for the strategy to judge, from `linkSource`. */
  links: LinkFeatures[];
  linkSource: 'html' | 'rdf';
  /**
   * Distinct links found past `--max-links-per-doc` (a sitemap's 100× cap), not in `links` and not followed (thesis
   * §11); an HTML page's and an RDF document's are counted up to BEYOND_COUNTED (links/extract-links.ts).
   */
  linksBeyondCap: number;
  /** Sitemap files listed by a sitemap index: queued as they are, without judging (they are not content). */
  sitemaps: LinkFeatures[];
  bad: BadLink[];
  /** Visible text of an HTML page ('' otherwise, and when `pageText` is false). */
  text: string;
  /** VoID access points stated in the document. */
  voidPoints: { dumps: string[]; endpoints: string[] };
}

/** Whether a frontier link points at a sitemap file (its body is read whatever its type). */
export function isSitemapLink(link: LinkFeatures | null): boolean {
  return link?.rel === SITEMAP_REL && link.tag !== 'sitemap';
}

/**
 * Opens the store of a document's quads, once the document is known to carry RDF: a writer, or null when the graph
 * is stored already (or being stored by another fetch), whose quads are then only counted.
 */
export type OpenDocument<W extends DocumentSink = DocumentWriter> = (finalUrl: string) => Promise<W | null>;

/** What analyses a fetched document: {@link analyseDocument} on this thread, or a pool of parse workers (parse-pool.ts). */
export type Analyse = (result: FetchResult, link: LinkFeatures | null, opts: AnalysisOptions, openDocument: OpenDocument) => Promise<DocumentAnalysis>;

/**
 * Analyses a fetched document (thesis §7 step 3). An RDF document is decoded and parsed as a stream: each
 * quad goes to the store (`openDocument`), the link and the VoID collectors as it is parsed, so
 * neither its whole text nor an array of its quads exists. An HTML page is read whole (links and embedded blocks).
 */
export async function analyseDocument<W extends DocumentSink = DocumentWriter>(
  result: FetchResult,
  link: LinkFeatures | null,
  opts: AnalysisOptions,
  openDocument: OpenDocument<W>,
): Promise<DocumentAnalysis<W>> {
  const a: DocumentAnalysis<W> = {
    contentType: 'contentType' in result ? result.contentType : null,
    detectedType: null,
    rdfFormat: null,
    triples: 0,
    document: null,
    storedAlready: false,
    partial: [],
    partialCount: 0,
    error: result.kind === 'ok' || result.kind === 'skipped' ? null : result.error,
    errorMessage: result.kind === 'failed' ? result.message : null,
    recovery: null,
    links: [],
    linkSource: 'html',
    linksBeyondCap: 0,
    sitemaps: [],
    bad: [],
    text: '',
    voidPoints: { dumps: [], endpoints: [] },
  };
  if (result.kind !== 'ok') return a;
  const base = result.finalUrl;
  const headerLinks = parseLinkHeader(result.headers.link, base);
  let detected = detectType(result.body, result.contentType, base);
  // JSON-LD 1.1 API §9.4: a JSON document (not application/ld+json) whose Link header names a JSON-LD context is
  // JSON-LD with that context.
  const contextUrl = jsonLdContextLink(result.contentType, result.headers.link, base);
  if (contextUrl !== null && (detected.kind === 'other' || (detected.kind === 'rdf' && detected.mediaType === 'application/ld+json')) && /^\s*[[{]/.test(result.body.subarray(0, 64).toString('latin1'))) {
    detected = { kind: 'rdf', mediaType: 'application/ld+json' };
  }
  a.detectedType = detected.kind;

  if (detected.kind === 'other') {
    a.links = headerLinks;
    if (isSitemapLink(link) || looksLikeSitemap(result.body.subarray(0, 4096).toString('latin1'))) {
      const { text } = decodeText(result.body, result.contentType);
      const sitemap = extractSitemapUrls(text, base, { normalize: opts.normalize });
      const found = sitemap.urls.map((url): LinkFeatures => ({ url, tag: 'sitemap', anchor: '', title: '', type: '', rel: '', context: '' }));
      if (sitemap.kind === 'index') a.sitemaps = found.map((l) => ({ ...l, tag: 'seed', rel: SITEMAP_REL }));
      else {
        const cap = Math.max(0, opts.maxLinksPerDoc * 100); // sitemaps list many: 100× the page cap
        a.links.push(...found.slice(0, cap));
        a.linksBeyondCap = Math.max(0, found.length - cap);
      }
      a.bad = sitemap.bad;
    }
    return a;
  }

  if (detected.kind === 'rdf') {
    a.rdfFormat = detected.mediaType;
    a.linkSource = 'rdf';
    const parse = contextUrl === null ? opts.parse : { ...opts.parse, jsonLdContext: contextUrl };
    await parseRdfStream(a, result.body, result.contentType, detected.mediaType, base, opts, openDocument, parse);
    a.links = a.error !== null ? headerLinks : [...headerLinks, ...dumpLinks(a.voidPoints.dumps, base), ...a.links];
    return a;
  }

  // HTML: links for the strategy, embedded RDF stored; a broken embedded block leaves the page itself fine. One
  // tokenizer pass reads both the links and what the embedded-RDF reader needs of the page.
  const { text } = decodeText(result.body, result.contentType);
  const scan = pageScanFor(text);
  const extracted = extractLinks(text, base, {
    maxLinks: opts.maxLinksPerDoc,
    normalize: opts.normalize,
    ...(opts.pageText === false ? { maxTextChars: 0 } : {}),
    ...(scan !== undefined ? { scan } : {}),
  });
  const parsed = await parseDocument(text, detected, base, opts.parse, scan);
  a.recovery = parsed.recovery ?? null;
  a.links = [...headerLinks, ...extracted.links];
  a.linksBeyondCap = extracted.beyond;
  a.bad = extracted.bad;
  a.text = extracted.text;
  if (parsed.quads.length > 0) {
    a.triples = parsed.quads.length;
    a.document = await openDocument(base);
    a.storedAlready = a.document === null;
    for (const q of parsed.quads) a.document?.add(q);
    await a.document?.drained();
  }
  if (parsed.embedded && parsed.embedded.length > 0) a.rdfFormat = `text/html+${parsed.embedded.join('+')}`;
  if (parsed.error) a.errorMessage = parsed.error.message;
  else if (parsed.problems && parsed.problems.length > 0) a.errorMessage = parsed.problems.map((p) => `${p.source ?? 'embedded'}: ${p.message}`).join('; ');
  a.voidPoints = voidAccessPoints(parsed.quads);
  return a;
}

/**
 * Parses an RDF body as a stream into the document's store and the link and VoID collectors (one pass),
 * decoding the bytes a slice at a time. On a parse error the document keeps nothing (all or nothing):
 * `a.error` is set, `a.partial` holds the first quads, and `a.document` the writer whose chunks must be discarded.
 */
async function parseRdfStream<W extends DocumentSink>(
  a: DocumentAnalysis<W>,
  body: Buffer,
  contentType: string | null,
  mediaType: string,
  base: string,
  opts: AnalysisOptions,
  openDocument: OpenDocument<W>,
  parse: ParseOptions | undefined,
): Promise<void> {
  const writer = await openDocument(base);
  a.document = writer;
  a.storedAlready = writer === null;
  let links = opts.followRdfLinks ? new RdfLinkCollector(base, opts.maxLinksPerDoc) : null;
  let voids = new VoidCollector();
  const partial: Quad[] = [];
  const target = {
    add(q: Quad): void {
      writer?.add(q);
      links?.add(q);
      voids.add(q);
      if (partial.length < MAX_PARTIAL_QUADS) partial.push(q);
    },
    drained: async (): Promise<void> => writer?.drained(),
    // A JSON-LD document parsed again (it left the streaming profile): what came of the first pass is forgotten.
    restart: async (): Promise<void> => {
      await writer?.restart();
      links = opts.followRdfLinks ? new RdfLinkCollector(base, opts.maxLinksPerDoc) : null;
      voids = new VoidCollector();
      partial.length = 0;
    },
  };
  const charset = chooseCharset(body, contentType);
  const parsed = await parseRdfDocumentInto(() => decodeChunks(body, charset), mediaType, base, target, parse);
  a.recovery = parsed.recovery;
  await writer?.drained(); // a chunk the store could not take fails the crawl (RDFSCOUT_STORE_FAILED), not the document
  // Every statement dropped: the document is unreadable, as a strict parse would have said (with its first error).
  const first = parsed.recovery?.errors[0];
  if (parsed.error === null && parsed.count === 0 && first !== undefined) {
    parsed.error = { code: first.code, message: `Invalid ${mediaType}: every statement failed; the first: ${first.message}`, ...(first.line === undefined ? {} : { line: first.line }) };
  }
  if (parsed.error !== null) {
    a.error = parsed.error.code;
    a.errorMessage = parsed.error.message;
    a.partial = partial;
    a.partialCount = parsed.count;
    return;
  }
  a.triples = parsed.count;
  a.voidPoints = voids.points();
  a.links = links?.links() ?? [];
  a.linksBeyondCap = links?.beyond() ?? 0;
}
