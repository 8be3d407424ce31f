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
  /**
   * Statements (and triples with a term that is not valid RDF) a lenient parse dropped from the document, its
   * repaired terms, and its first errors with their lines. Absent when nothing was dropped or repaired.
   */
  recovery?: { dropped: number; repaired: number; errors: Array<{ message: string; line?: number; source?: string }> };
  /**
   * Distinct links of the document found past `--max-links-per-doc` (a sitemap: past 100× it), not followed (thesis
   * §11); counted up to 10,000 past the cap for an HTML page or an RDF document. Absent when none (and in records
   * written before it was kept).
   */
  linksBeyondCap?: number;
  /** Predicted label when the link was queued (null for seeds). */
  label: Label | null;
  /** Rules that fired for the prediction. */
  rules: string[];
  redirects: RedirectHop[];
  /** Wall time of the fetch and processing. */
  ms: number;
  /** ISO time the fetch completed: of two records of one URL in the shards of a shared crawl, the later one wins. */
  fetchedAt: string;
  /**
   * Set on a record of a shared crawl's worker whose release was refused (its lease was lost before it was
   * applied): another worker fetched the URL again. Reads skip it; its document may stay in the shard,
   * and a merged reading takes a graph only from the shard whose record of that URL wins.
   */
  voided?: true;
}

/** The status that makes a document "fetched successfully" (thesis §9: only HTTP 200 documents count). */
const SUCCESS_STATUS = 200;

/** Whether a record is a successfully fetched document (thesis §9). */
export function isFetchedOk(record: CrawlRecord): boolean {
  return record.status === SUCCESS_STATUS;
}

/** Whether a record's bytes are truly RDF (status 200, RDF found in its bytes): its true label is `R` (thesis §2). */
export function isRdfDocument(record: CrawlRecord): boolean {
  return isFetchedOk(record) && record.detectedType === 'rdf';
}

/**
 * Whether a record is an RDF document *obtained* (thesis §9 N_RDF, the harvest): truly RDF, parsed without error,
 * with triples, and stored (a duplicate of an already stored final URL stores nothing, so it has 0 triples).
 * The one definition used by the harvest rate everywhere (`metrics`, `stats`, the crawl summary, the reward).
 */
export function isRdfObtained(record: CrawlRecord): boolean {
  return isRdfDocument(record) && record.error === null && record.triples > 0;
}
