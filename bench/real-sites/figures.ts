// **siteFigures** turns one crawl's records, the site's oracle and rdflib's reference into the bench's figures.
import type { ChildRecord } from './crawl-child.ts';
import { type ServedSite, staticAnswer } from './static-host.ts';

/** What oracle.py says of a site (see its header). */
export interface Oracle {
  files: Record<string, { type: 'rdf' | 'html'; media: string; rdflib: number | null; error: string | null; embedded?: boolean }>;
  reachable_any: string[];
  reachable_html: string[];
  reachable_embedded: string[];
}

export interface SiteFigures {
  fetches: number;
  /** Status 200, detected as RDF. */
  rdfDocs: number;
  rdfDocsWithTriples: number;
  rdfTriples: number;
  /** HTML pages whose embedded RDF gave ≥ 1 triple, and those triples. */
  htmlWithTriples: number;
  htmlTriples: number;
  /** Oracle: RDF files reachable through any link, plus HTML pages with embedded-RDF markup reachable. */
  oracle: number;
  /** Oracle documents the crawl kept ≥ 1 triple from. */
  oracleFound: number;
  /** RDF files of the oracle only (no embedded), and how many were kept with ≥ 1 triple. */
  oracleRdf: number;
  oracleRdfFound: number;
  /** RDF files reachable through HTML links alone. */
  oracleHtmlOnly: number;
  /** rdflib reference over this crawl's RDF documents that map to a served RDF file and are not excluded. */
  refDocs: number;
  /** Of those, rdflib rejects (error or 0 triples): left out of the ratios. */
  refRejected: number;
  /** Documents rdflib reads ≥ 1 triple from, and how many of them rdfscout kept ≥ 1 triple from. */
  refReadable: number;
  refKept: number;
  refTriples: number;
  /** rdfscout's triples on the same (readable) documents. */
  keptTriples: number;
  /** RDF documents with no reference: not a served RDF file (e.g. JSON sniffed as JSON-LD) or excluded by the site. */
  noRef: number;
  /** The RDF documents rdfscout kept 0 triples from while rdflib read some: rel → rdfscout's error. */
  lost: { rel: string; rdflib: number; error: string | null }[];
}

/** Figures of one crawl of `served`. `exclude` (a regex) names files left out of the reference (e.g. negative tests). */
export function siteFigures(served: ServedSite, oracle: Oracle, records: readonly ChildRecord[], exclude: RegExp | null): SiteFigures {
  const f: SiteFigures = {
    fetches: records.length,
    rdfDocs: 0,
    rdfDocsWithTriples: 0,
    rdfTriples: 0,
    htmlWithTriples: 0,
    htmlTriples: 0,
    oracle: 0,
    oracleFound: 0,
    oracleRdf: oracle.reachable_any.length,
    oracleRdfFound: 0,
    oracleHtmlOnly: oracle.reachable_html.length,
    refDocs: 0,
    refRejected: 0,
    refReadable: 0,
    refKept: 0,
    refTriples: 0,
    keptTriples: 0,
    noRef: 0,
    lost: [],
  };
  const withTriples = new Set<string>();
  const seenRel = new Set<string>();
  for (const r of records) {
    if (r.status !== 200) continue;
    const rel = relOf(served, r.finalUrl);
    if (r.triples > 0 && rel !== null) withTriples.add(rel);
    if (r.detectedType === 'html' && r.triples > 0) {
      f.htmlWithTriples++;
      f.htmlTriples += r.triples;
    }
    if (r.detectedType !== 'rdf') continue;
    f.rdfDocs++;
    f.rdfTriples += r.triples;
    if (r.triples > 0) f.rdfDocsWithTriples++;
    const ref = rel === null ? undefined : oracle.files[rel];
    if (rel === null || ref === undefined || ref.type !== 'rdf' || exclude?.test(rel) === true || seenRel.has(rel)) {
      f.noRef++;
      continue;
    }
    seenRel.add(rel);
    f.refDocs++;
    if (ref.rdflib === null || ref.rdflib === 0) {
      f.refRejected++;
      continue;
    }
    f.refReadable++;
    f.refTriples += ref.rdflib;
    f.keptTriples += r.triples;
    if (r.triples > 0) f.refKept++;
    else f.lost.push({ rel, rdflib: ref.rdflib, error: r.errorMessage ?? r.error });
  }
  const oracleAll = new Set([...oracle.reachable_any, ...oracle.reachable_embedded]);
  f.oracle = oracleAll.size;
  for (const rel of oracleAll) if (withTriples.has(rel)) f.oracleFound++;
  for (const rel of oracle.reachable_any) if (withTriples.has(rel)) f.oracleRdfFound++;
  return f;
}

function relOf(served: ServedSite, url: string): string | null {
  try {
    const a = staticAnswer([served], new URL(url));
    return a.kind === 'file' ? a.rel : null;
  } catch {
    return null;
  }
}

/** `a / b` to three decimals, or '–' when b is 0. */
export function ratio(a: number, b: number): string {
  return b === 0 ? '–' : (a / b).toFixed(3);
}
