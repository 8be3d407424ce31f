// **True labels** of fetched documents: from a ground-truth map, or derived from the crawl's own records (thesis §2, §9).
import { type CrawlRecord, isFetchedOk, isRdfDocument } from '../crawl-log/record.ts';
import type { Label } from '../relevance/types.ts';

/** Ground truth: URL → true label. Looked up by a record's `url`, then its `finalUrl`. */
export type TruthMap = ReadonlyMap<string, Label>;

// The record predicates (thesis §9) live with the record, in crawl-log; metrics re-exports them.
export { isFetchedOk, isRdfDocument, isRdfObtained } from '../crawl-log/record.ts';

/**
 * The URLs of RDF parents the records themselves reveal: the `parent` of every RDF document. An HTML record whose
 * `url` or `finalUrl` is among them is truly `HR`. Pages whose RDF children were never fetched stay `H`: without a
 * truth file the HR truth is a lower bound.
 */
function findRdfParents(records: readonly CrawlRecord[]): Set<string> {
  const parents = new Set<string>();
  for (const r of records) if (isRdfDocument(r) && r.parent !== null) parents.add(r.parent);
  return parents;
}

/**
 * Builds the true-label function. With `truth`, a URL it lists gets its label there; otherwise (or for URLs it
 * does not list) the label is derived from the record: not status 200 → unknown (null); RDF bytes → `R`; HTML →
 * `HR` when it is the parent of a fetched RDF document, else `H`; other bytes → `N`; a body skipped by the fetch
 * filter → `N` (its Content-Type was neither HTML nor RDF; an approximation, since the bytes were not read).
 */
export function trueLabeler(records: readonly CrawlRecord[], truth?: TruthMap): (record: CrawlRecord) => Label | null {
  const parents = findRdfParents(records);
  return (record) => {
    const listed = truth?.get(record.url) ?? truth?.get(record.finalUrl);
    if (listed !== undefined) return listed;
    if (!isFetchedOk(record)) return null;
    switch (record.detectedType) {
      case 'rdf':
        return 'R';
      case 'html':
        return parents.has(record.url) || parents.has(record.finalUrl) ? 'HR' : 'H';
      case 'other':
        return 'N';
      default:
        return record.outcome === 'skipped' ? 'N' : null;
    }
  };
}

/**
 * Parses a ground-truth file: JSON lines `{"url": …, "label": "R" | "HR" | "H" | "N", …}` (what simweb's
 * `writeTruth` writes; other fields ignored), a JSON object `{ "url": "R", … }`, or lines `url<TAB or space>label`.
 * Entries with another label are skipped. A malformed JSON line throws a SyntaxError naming its line number.
 */
export function parseTruth(text: string): Map<string, Label> {
  const labels = new Set<string>(['R', 'HR', 'H', 'N']);
  const map = new Map<string, Label>();
  const trimmed = text.trim();
  const add = (url: unknown, label: unknown): void => {
    if (typeof url === 'string' && typeof label === 'string' && labels.has(label)) map.set(url, label as Label);
  };
  if (trimmed.startsWith('{')) {
    const firstLine = trimmed.slice(0, trimmed.search(/\r?\n|$/));
    const first = tryParse(firstLine);
    if (first !== undefined && typeof first === 'object' && first !== null && 'url' in first && 'label' in first) {
      // JSON lines of truth records.
      for (const [i, line] of trimmed.split(/\r?\n/).entries()) {
        if (line.trim() === '') continue;
        let rec: { url?: unknown; label?: unknown };
        try {
          rec = JSON.parse(line) as { url?: unknown; label?: unknown };
        } catch (err) {
          throw new SyntaxError(`truth line ${i + 1}: ${(err as Error).message}`);
        }
        add(rec.url, rec.label);
      }
      return map;
    }
    for (const [url, label] of Object.entries(JSON.parse(trimmed) as Record<string, unknown>)) add(url, label);
    return map;
  }
  for (const line of trimmed.split(/\r?\n/)) {
    const [url, label] = line.trim().split(/\s+/);
    if (url && !url.startsWith('#')) add(url, label);
  }
  return map;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
