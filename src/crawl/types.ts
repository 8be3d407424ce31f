// Types of the crawl records: one per fetched document, what `rdfscout docs`, `metrics` and `stats` read.
import type { ErrorCode } from '../errors.ts';
import type { FetchResult, RedirectHop } from '../fetch/types.ts';
import type { DocType, Label } from '../relevance/types.ts';

/** One fetch, in fetch order (`seq`). Stored in the `records` sublevel under a zero-padded seq. */
export interface CrawlRecord {
  /** 1-based fetch order. */
  seq: number;
  url: string;
  finalUrl: string;
  /** Final HTTP status after redirects; null when there was no response. */
  status: number | null;
  /** How the fetch ended. */
  outcome: FetchResult['kind'];
  contentType: string | null;
  /** The type found in the bytes; null when the body was not read. */
  detectedType: DocType | null;
  /** RDF media type the document was parsed as, when RDF (or embedded formats, e.g. `text/html+jsonld`). */
  rdfFormat: string | null;
  parent: string | null;
  depth: number;
  pld: string;
  /** Triples (quads) stored from this document (0 when none or when parsing failed). */
  triples: number;
  /** Links extracted and queued from it. */
  linksQueued: number;
  error: ErrorCode | null;
  errorMessage: string | null;
  /** Predicted label when the link was queued (null for seeds). */
  label: Label | null;
  /** Rules that fired for the prediction. */
  rules: string[];
  redirects: RedirectHop[];
  /** Wall time of the fetch and processing. */
  ms: number;
  /** ISO time the fetch completed. */
  fetchedAt: string;
}
