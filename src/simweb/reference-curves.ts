// **referenceCurves**: the oracle's and a breadth-first crawl's harvest curves for a crawl of a simulated web (pure).
import { pldOf } from '../links/normalize-url.ts';
import { breadthFirstCurve } from './bfs-curve.ts';
import { type OracleSource, oracleCurve } from './oracle.ts';
import { truthRecords } from './truth.ts';
import { buildWeb, linksOf, type WebOptions } from './web.ts';

/** A named curve: `curve[k − 1]` = RDF documents after k fetches (the dashboard's and the report's convention). */
export interface NamedCurve {
  name: string;
  curve: number[];
}

/** What a crawl of the simulated web covers: its seeds, and whether it may leave their PLDs. */
export interface ReferenceScope {
  seeds: readonly string[];
  /** Only the seeds' PLDs (`--scope seeds` with no off-site hops); false: every site the links reach. */
  seedPldsOnly: boolean;
  /** Curve length (fetches); Infinity: every URL the web knows within the scope. */
  maxFetches: number;
}

/**
 * The reference curves drawn beside a live or finished crawl of the simulated web `web` (thesis Fig. 4-1): the
 * oracle (`oracleCurve`: what a clairvoyant crawler has after k fetches) and breadth-first (`breadthFirstCurve`), both
 * started from the crawl's seeds, within its scope, following HTML variants of content-negotiated resources as
 * rdfscout does.
 */
export function referenceCurves(web: WebOptions, scope: ReferenceScope): NamedCurve[] {
  const model = buildWeb(web);
  const seedPlds = new Set(scope.seeds.map((u) => pldOf(u)));
  const truth = [...truthRecords(model)]; // built once: the budget, the oracle and breadth-first all read it
  const hosts = scope.seedPldsOnly ? model.sites.map((s) => s.host).filter((h) => seedPlds.has(pldOf(h))) : undefined;
  const source: OracleSource = {
    sites: scope.seeds.map((u) => ({ host: new URL(u).hostname, startUrl: u })),
    truth: () => truth,
    links: (url) => linksOf(model, url),
  };
  const options = { htmlVariants: true, ...(hosts === undefined ? {} : { hosts }) };
  let maxK = scope.maxFetches;
  if (!Number.isFinite(maxK)) {
    const inScope = hosts === undefined ? null : new Set(hosts);
    maxK = inScope === null ? truth.length : truth.filter((rec) => inScope.has(rec.host)).length;
  }
  return [
    { name: 'oracle', curve: oracleCurve(source, maxK, options).slice(1) },
    { name: 'breadth-first', curve: breadthFirstCurve(source, maxK, options).slice(1) },
  ];
}
