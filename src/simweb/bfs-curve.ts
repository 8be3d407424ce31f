// **breadthFirstCurve**: RDF documents a breadth-first crawler has after k fetches, from ground truth and the link graph (pure).
import type { OracleOptions, OracleSource } from './oracle.ts';
import type { TruthRecord } from './types.ts';

/**
 * The breadth-first reference curve (thesis §4.2's baseline, drawn beside the oracle): `curve[k]` = RDF documents
 * (truth label `R`, status 200) after k fetches, 0 ≤ k ≤ maxK.
 *
 * One FIFO queue over the web's link graph, started with the sites' start pages in site order: a fetched HTML page
 * (status 200) queues its links in page order, each URL once. A 301/303 is followed inside its fetch (the target
 * costs that fetch, as rdfscout and LDSpider fetch); a content-negotiated URL's HTML variant is queued like a link
 * (`htmlVariants`). Robots-disallowed URLs are never fetched. Only URLs the web knows (with a truth record) are
 * fetched, so an endless calendar costs only its materialised months: the curve is an upper bound of what a real
 * breadth-first crawl of the same web finds, whose order across sites also depends on politeness.
 */
export function breadthFirstCurve(source: OracleSource, maxK: number, options: OracleOptions = {}): number[] {
  const hosts = options.hosts ? new Set(options.hosts) : undefined;
  const respectRobots = options.respectRobots ?? true;
  const followsRedirects = options.followsRedirects ?? true;
  const byUrl = new Map<string, TruthRecord>();
  for (const rec of source.truth()) {
    if (hosts && !hosts.has(rec.host)) continue;
    if (respectRobots && rec.disallowed) continue;
    byUrl.set(rec.url, rec);
  }
  const seen = new Set<string>();
  const queue: TruthRecord[] = [];
  const enqueue = (url: string): void => {
    const rec = byUrl.get(url);
    if (rec === undefined || seen.has(url)) return;
    seen.add(url);
    queue.push(rec);
  };
  for (const site of source.sites) enqueue(site.startUrl);

  const curve = [0];
  let found = 0;
  const isRedirect = (r: TruthRecord): boolean => r.status >= 300 && r.status < 400 && r.redirectTo !== undefined;
  for (let head = 0; head < queue.length && curve.length <= maxK; head++) {
    let rec = queue[head] as TruthRecord;
    // Follow a redirect chain within this one fetch (each target once: a loop ends the chain).
    while (followsRedirects && isRedirect(rec)) {
      if (options.htmlVariants && rec.redirectToHtml) enqueue(rec.redirectToHtml);
      const target = byUrl.get(rec.redirectTo as string);
      if (target === undefined || seen.has(target.url)) break;
      seen.add(target.url);
      rec = target;
    }
    if (rec.label === 'R' && rec.status === 200) found++;
    curve.push(found);
    if (rec.status === 200 && (rec.label === 'H' || rec.label === 'HR')) for (const url of source.links(rec.url)) enqueue(url);
    else if (!followsRedirects && isRedirect(rec)) enqueue(rec.redirectTo as string);
  }
  while (curve.length <= maxK) curve.push(found);
  return curve;
}
