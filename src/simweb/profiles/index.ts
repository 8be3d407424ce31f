// The profile registry: named profiles and the meta-profiles `thesis` and `mixed`.
import { ArgumentError } from '../../errors.ts';
import { beebotRasProfile, beebotUnivProfile } from './beebot.ts';
import { dbtuneProfile } from './dbtune.ts';
import { deriProfile } from './deri.ts';
import { modernProfile } from './modern.ts';
import { openlylocalProfile } from './openlylocal.ts';
import type { Profile } from './profile.ts';
import { rossettiProfile } from './rossetti.ts';

export type { Profile, ProfileSite } from './profile.ts';

/** Every concrete profile by name. */
export const PROFILES: ReadonlyMap<string, Profile> = new Map(
  [dbtuneProfile, openlylocalProfile, deriProfile, rossettiProfile, modernProfile, beebotRasProfile, beebotUnivProfile].map((p) => [p.name, p]),
);

/** Meta-profiles: `thesis` = the four thesis PLDs (§11), `mixed` = everything. */
export const META_PROFILES: Readonly<Record<string, readonly string[]>> = {
  thesis: ['dbtune-like', 'openlylocal-like', 'deri-like', 'rossetti-like'],
  mixed: [...PROFILES.keys()],
};

/** Expands names (comma-separated strings allowed, meta-profiles expanded) into profiles, in order, without repeats. */
export function resolveProfiles(names: string | readonly string[]): Profile[] {
  const list = (typeof names === 'string' ? [names] : names).flatMap((n) => n.split(',')).map((n) => n.trim()).filter((n) => n !== '');
  const out: Profile[] = [];
  for (const name of list) {
    for (const concrete of META_PROFILES[name] ?? [name]) {
      const profile = PROFILES.get(concrete);
      if (!profile) {
        throw new ArgumentError(`unknown simweb profile "${name}"; known: ${[...PROFILES.keys(), ...Object.keys(META_PROFILES)].join(', ')}`);
      }
      if (!out.includes(profile)) out.push(profile);
    }
  }
  if (out.length === 0) throw new ArgumentError('no simweb profile given; try --profile thesis');
  return out;
}
