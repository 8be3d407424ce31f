// **[Hat10] URL distance** used by FC-R+HR2 to predict RDF parents (thesis §10).
import { compareUrlParts } from './relevancy-hr.ts';
import type { UrlParts } from './url-parts.ts';

/** Host distance of [Hat10] (thesis §10): 0 when hosts are equal, else 32. */
const HAT10_HOST_DISTANCE = 32;

/** Components of the [Hat10] distance between two URLs. */
export interface Hat10Distance {
  dHost: number;
  /** 2k + 4(n − m), n ≥ m, k as in thesis §5. */
  dPath: number;
  dQuery: number;
  /** (dHost+1)(dPath+1)(dQuery+1) − 1. */
  dUrl: number;
}

/** dURL(i, j) = (dHost+1)·(dPath+1)·(dQuery+1) − 1 (thesis §10). Pure. */
export function hat10Distance(i: UrlParts, j: UrlParts): Hat10Distance {
  const c = compareUrlParts(i, j);
  const dHost = i.host === j.host ? 0 : HAT10_HOST_DISTANCE;
  const dPath = 2 * c.k + 4 * (c.n - c.m);
  const dQuery = i.query === j.query ? 0 : 1;
  return { dHost, dPath, dQuery, dUrl: (dHost + 1) * (dPath + 1) * (dQuery + 1) - 1 };
}

/** Similar under [Hat10] when dURL ≤ 1 (thesis §10). */
export function isHat10Similar(i: UrlParts, j: UrlParts): boolean {
  return hat10Distance(i, j).dUrl <= 1;
}

// Why the parent index can answer Hat10 without computing distances: dURL ≤ 1 needs dHost = 0 (else ≥ 32), and
// dPath is even (2k + 4(n−m)), so (dPath+1)(dQuery+1) ≤ 2 forces dPath = 0, i.e. k = 0 and n = m: the same
// host and the same path segments, with any query. `ParentSet.hasSameHostAndPath` is exactly that lookup.
