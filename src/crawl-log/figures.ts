// **Crawl figures**: the one definition of every count a command prints (fetched, RDF documents, errors, …).
import type { CrawlRecord } from './record.ts';
import { isFetchedOk, isRdfDocument, isRdfObtained } from './record.ts';

/**
 * The figures of a set of crawl records. Every command (the crawl summary and its `--json`, `stats`, `metrics`,
 * the demo, the progress bar) computes them here, so they agree; the README's "Figures" section states them.
 */
export interface CrawlFigures {
  /** Every crawl record: one per URL the crawl finished with, robots refusals included. */
  records: number;
  /** Records refused by robots.txt: no request was sent, so they are not fetched and spend no budget. */
  denied: number;
  /** Records that sent a request (`records − denied`); what `--max-docs` and `--max-docs-per-pld` count. */
  fetched: number;
  /** Fetched with final status 200 (thesis §9 "fetched successfully", N of the precision tables). */
  ok: number;
  /** RDF documents obtained (thesis §9 N_RDF): status 200, RDF bytes, parsed without error, triples stored. */
  rdfDocuments: number;
  /** Documents whose bytes are RDF (status 200), whether or not any triple was kept: `rdfDocuments` of them kept ≥ 1. */
  rdfDetected: number;
  /** HTML documents with embedded RDF (JSON-LD, RDFa, Microdata) stored. */
  embeddedDocuments: number;
  /** Triples stored (the sum over records; a duplicate of a stored document adds none). */
  triples: number;
  /** Statements a lenient parse dropped (a syntax error, an undefined prefix; triples with a term not valid RDF). */
  statementsDropped: number;
  /** Documents (RDF or HTML) that lost at least one statement so. */
  documentsWithDrops: number;
  /** Terms a lenient parse repaired (IRIs percent-encoded, language tags mended, relative IRIs resolved, …). */
  termsRepaired: number;
  /** Distinct links found past `--max-links-per-doc` and not followed, summed over records (record.ts `linksBeyondCap`). */
  linksBeyondCap: number;
  /** Documents that had links past `--max-links-per-doc`. */
  documentsWithLinksCut: number;
  /** Fetched records whose request failed: an HTTP error status, or no usable response (network, timeout, limit). */
  errors: number;
  /** Records with a usable response whose content could not be read (a parse failure, an encoding error). */
  parseFailures: number;
  /** Records that followed at least one redirect hop. */
  redirected: number;
  /** Thesis §9 harvest rate: `rdfDocuments / fetched` (RDF documents per request sent); 0 before any fetch. */
  harvestRate: number;
  /**
   * URLs fetched more than once across the shards read as one crawl (e.g. again after a lost lease): the
   * merged reading keeps one record of each, the latest, so every other figure counts such a URL once. 0 when one
   * crawl folder is read (its records are its history, `--retry-failed` retries included). See {@link countRefetched}.
   */
  refetched: number;
}

/** Whether robots.txt refused the record's URL (no request was sent). */
export function isDenied(r: CrawlRecord): boolean {
  return r.outcome === 'denied';
}

/** Whether the record's request failed (HTTP error status, or no usable response); robots refusals are not errors. */
export function isFetchError(r: CrawlRecord): boolean {
  return r.outcome === 'failed' || r.outcome === 'http-error';
}

/** Whether a usable response's content could not be read (parse or decoding failure). */
function isParseFailure(r: CrawlRecord): boolean {
  return (r.outcome === 'ok' || r.outcome === 'skipped') && r.error !== null;
}

/** Whether the record is an HTML page with embedded RDF stored. */
function isEmbeddedRdf(r: CrawlRecord): boolean {
  return r.detectedType === 'html' && r.triples > 0;
}

/** Figures with every count at zero. */
export function emptyFigures(): CrawlFigures {
  return {
    records: 0,
    denied: 0,
    fetched: 0,
    ok: 0,
    rdfDocuments: 0,
    rdfDetected: 0,
    embeddedDocuments: 0,
    triples: 0,
    statementsDropped: 0,
    documentsWithDrops: 0,
    termsRepaired: 0,
    linksBeyondCap: 0,
    documentsWithLinksCut: 0,
    errors: 0,
    parseFailures: 0,
    redirected: 0,
    harvestRate: 0,
    refetched: 0,
  };
}

/** The `refetched` figure: how many URLs have more than one record, given each URL's number of records. */
export function countRefetched(recordsPerUrl: Iterable<number>): number {
  let n = 0;
  for (const count of recordsPerUrl) if (count > 1) n += 1;
  return n;
}

/** Adds one record to `f` (in place) and keeps `harvestRate` current. */
export function addRecord(f: CrawlFigures, r: CrawlRecord): void {
  f.records += 1;
  if (isDenied(r)) f.denied += 1;
  else f.fetched += 1;
  if (isFetchedOk(r)) f.ok += 1;
  if (isRdfObtained(r)) f.rdfDocuments += 1;
  else if (isEmbeddedRdf(r)) f.embeddedDocuments += 1;
  if (isRdfDocument(r)) f.rdfDetected += 1;
  f.triples += r.triples;
  if (r.recovery !== undefined) {
    f.statementsDropped += r.recovery.dropped;
    if (r.recovery.dropped > 0) f.documentsWithDrops += 1;
    f.termsRepaired += r.recovery.repaired;
  }
  if (r.linksBeyondCap !== undefined && r.linksBeyondCap > 0) {
    f.linksBeyondCap += r.linksBeyondCap;
    f.documentsWithLinksCut += 1;
  }
  if (isFetchError(r)) f.errors += 1;
  if (isParseFailure(r)) f.parseFailures += 1;
  if (r.redirects.length > 0) f.redirected += 1;
  f.harvestRate = f.fetched === 0 ? 0 : f.rdfDocuments / f.fetched;
}

/** The figures of `records`. Pure. */
export function computeFigures(records: Iterable<CrawlRecord>): CrawlFigures {
  const f = emptyFigures();
  for (const r of records) addRecord(f, r);
  return f;
}
