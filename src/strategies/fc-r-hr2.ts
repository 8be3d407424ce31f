// **FC-R+HR2**: Relevancy_R, then the [Hat10] URL distance to the learned RDF parents (thesis §10).
import type { ParentSet } from '../relevance/relevancy-hr.ts';
import type { UrlParts } from '../relevance/url-parts.ts';
import { FcRHrStrategy } from './fc-r-hr.ts';

/** Rule recorded when [Hat10] predicts an RDF parent. */
const HAT10_RULE = 'hat10';

/**
 * FC-R+HR2: as FC-R+HR, but an `H` link is `HR` when its [Hat10] distance to a known RDF parent is ≤ 1 (same host
 * and path; see `hat10.ts` for why the index lookup equals the distance test). Learns C_HR(t) as FC-R+HR does.
 */
export class FcRHr2Strategy extends FcRHrStrategy {
  override readonly name: string = 'fc-r+hr2';

  protected override parentRules(parts: UrlParts, parents: ParentSet): string[] {
    return parents.hasSameHostAndPath(parts) ? [HAT10_RULE] : [];
  }
}
