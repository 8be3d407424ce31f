// The shape of a profile: a knob set that builds one or more simulated sites.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';

/** One site a profile contributes to a web. */
export interface ProfileSite {
  /** Host name, lower case, under a suffix tldts knows (e.g. `dbtune-sim.org`). */
  host: string;
  name: string;
  shortName: string;
  /** Documents at scale 1 (the source's size: thesis §11 Table 4-3, BeeBot §4 Table 1). */
  size: number;
  /** Fills the builder with about `size` documents (document 0 is the start page `/`). */
  build(b: SiteBuilder, rng: Prng, size: number): void;
}

/** A named profile. */
export interface Profile {
  name: string;
  description: string;
  sites: ProfileSite[];
}
