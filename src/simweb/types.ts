// Types of the simulated Linked-Data web: documents, sites, ground truth and the server handle.
import type { Label } from '../relevance/types.ts';

export type { Label };

/** What a simulated URL serves. `conneg` answers 303 to an RDF or HTML variant by the `Accept` header. */
export type DocKind = 'html' | 'rdf' | 'binary' | 'xml' | 'json' | 'sitemap' | 'redirect' | 'conneg' | 'error';

/** RDF serialisations the renderer writes. */
export type RdfFormat = 'rdfxml' | 'turtle' | 'ntriples' | 'jsonld';

/** Vocabulary flavour of a rendered RDF body or embedded markup. */
export type Vocab = 'music' | 'foaf' | 'council' | 'schema' | 'archive';

/**
 * How a link is written in HTML (low 4 bits of an encoded link).
 * The styles reproduce the link features of thesis §3: anchor text, `type`, `title`, `<link rel=alternate>`.
 */
export const LinkStyle = {
  /** `<a href>` with the target's title as anchor text. */
  plain: 0,
  /** `<a href>RDF</a>` (openlylocal, dbtune). */
  rdfAnchor: 1,
  /** `<link rel="alternate" type="application/rdf+xml">` in the head, plus `<a>RDF</a>` in the body. */
  altRdfXml: 2,
  /** `<link rel="alternate" type="text/turtle">` in the head. */
  altTurtle: 3,
  /** `<link rel="alternate" type="application/json">` plus `<a>JSON</a>`. */
  altJson: 4,
  /** `<link rel="alternate" type="application/xml">` plus `<a>XML</a>`. */
  altXml: 5,
  /** `<a href>` with a neutral anchor ("Personal profile"): only the path says `foaf` (thesis §11, PLD 3). */
  profile: 6,
  /** `<iframe src>`. */
  iframe: 7,
  /** `<a href>next »</a>`. */
  next: 8,
  /** `<a href>« previous</a>`. */
  prev: 9,
  /** `<link rel="alternate" type="application/ld+json">`. */
  altJsonLd: 10,
  /** `<a href>Download</a>` with a `title` naming the format. */
  download: 11,
  /** `<a href type="application/rdf+xml" title="RDF/XML">`. */
  typedRdf: 12,
  /** `<a class="btn btn-primary resource-url">Go to resource</a>`: only the DOM classes tell (CKAN-like download buttons). */
  button: 13,
  /** `<a href>TTL</a>`: the anchor is the format badge (from the `format=` query or the extension), as data portals show. */
  formatBadge: 14,
} as const;
export type LinkStyleCode = (typeof LinkStyle)[keyof typeof LinkStyle];

/** One document (URL) of a simulated site. Links are encoded as `target * 16 + style`. */
export interface SimDoc {
  id: number;
  /** Path and query, lower case, e.g. `/jamendo/artist/12` or `/jamendo/artists?page=2`. */
  path: string;
  kind: DocKind;
  /** HTTP status served (200, 301, 303, 404, 500, 503). */
  status: number;
  /** Content-Type served (for redirects and errors: that of the small body). */
  contentType: string;
  /** Encoded outgoing internal links (`target * 16 + style`), in page order. Shared by duplicates. */
  links: number[];
  /** Number of external links (to hosts outside the web) rendered on the page. */
  external: number;
  /** `redirect`: the target; `conneg`: the RDF variant. */
  target?: number;
  /** `conneg`: the HTML variant. */
  htmlTarget?: number;
  format?: RdfFormat;
  vocab?: Vocab;
  /** Triples in the RDF body (or in the embedded markup of an HTML page). */
  triples?: number;
  /** HTML with embedded RDF (modern-like): JSON-LD script or RDFa attributes. */
  embed?: 'jsonld' | 'rdfa';
  /** Answer after an extra delay (`slowMs`). */
  slow?: boolean;
  /** Renders byte-identical to this document (a duplicate under another URL). */
  dupOf?: number;
  /** Depth from the start page (BFS over served links and redirects); -1 when unreachable. */
  depth: number;
  label: Label;
}

/** robots.txt content of a site. */
export interface RobotsSpec {
  disallow: string[];
  /** Crawl-delay in seconds, if the site declares one. */
  crawlDelay?: number;
  /** Whether robots.txt names `/sitemap.xml`. */
  sitemap: boolean;
}

/** An infinite calendar (a crawler trap): `/events/calendar?month=YYYY-MM` links the next and previous month. */
export interface CalendarSpec {
  /** Path without query, e.g. `/events/calendar`. */
  path: string;
  /** First month materialised in the graph, e.g. `2011-01`. */
  firstMonth: string;
  /** Months materialised as documents (the next ones exist only when asked for). */
  months: number;
}

/** A built site: its documents and behaviour. */
export interface SiteModel {
  host: string;
  pld: string;
  startUrl: string;
  profile: string;
  name: string;
  shortName: string;
  /** Seed of this site's bodies. */
  seed: number;
  docs: SimDoc[];
  byPath: Map<string, number>;
  robots: RobotsSpec;
  calendar?: CalendarSpec;
}

/** Public description of a site (what `SimWeb.sites` lists). */
export interface SimSite {
  host: string;
  pld: string;
  startUrl: string;
  profile: string;
  name: string;
  shortName: string;
  /** Documents in the site's graph (calendar months beyond the materialised ones not counted). */
  documents: number;
}

/** Ground truth for one URL (one JSON line of `truthLines()`). */
export interface TruthRecord {
  url: string;
  host: string;
  pld: string;
  /** Thesis §2 label. Redirects carry the label of their final target; errors are `N`. */
  label: Label;
  /** Depth from the site's start page (BFS over served links and redirects); -1 when unreachable. */
  depth: number;
  /** Status served (for a content-negotiated URL: 303). */
  status: number;
  /** For 301/303: where it points (for content negotiation: the RDF variant, sent unless HTML is preferred). */
  redirectTo?: string;
  /** For content negotiation: the HTML variant, sent when `Accept` prefers HTML. */
  redirectToHtml?: string;
  contentType: string;
  /** For `R`: triples in the body. For HTML with embedded markup: triples in the markup. */
  triples?: number;
  /** RDF serialisation of an `R` document. */
  format?: RdfFormat;
  /** HTML with embedded JSON-LD or RDFa. */
  embedded?: 'jsonld' | 'rdfa';
  /** robots.txt disallows this URL. */
  disallowed?: true;
  /** Renders byte-identical to another URL. */
  duplicateOf?: string;
  /** External links on the page (BeeBot reward). */
  externalLinks?: number;
  /** Part of an infinite calendar trap. */
  trap?: true;
  /** Answers after an extra delay. */
  slow?: true;
}

/** Counters of the server. */
export interface SimWebStats {
  requests: number;
  proxyRequests: number;
  byStatus: Record<string, number>;
  byHost: Record<string, number>;
  bytes: number;
}
