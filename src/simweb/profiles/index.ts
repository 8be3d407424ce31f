// The profile registry: named profiles and the meta-profiles `thesis` and `mixed`.
import { ArgumentError } from '../../errors.ts';
import { banditDryProfile, banditLateProfile, banditManyProfile, banditRichProfile } from './bandit-drift.ts';
import { beebotRasProfile, beebotUnivProfile } from './beebot.ts';
import { campusProfile } from './campus.ts';
import { ckanProfile } from './ckan.ts';
import { dbtuneProfile } from './dbtune.ts';
import { GENERATED_PATTERN, generatedProfile } from './generated-sets.ts';
import { instituteProfile } from './institute.ts';
import { deriProfile } from './deri.ts';
import { modernProfile } from './modern.ts';
import { museumProfile } from './museum.ts';
import { ontologyProfile } from './ontology.ts';
import { opendataProfile } from './opendata.ts';
import { openlylocalProfile } from './openlylocal.ts';
import { portalProfile } from './portal.ts';
import type { Profile } from './profile.ts';
import { rossettiProfile } from './rossetti.ts';
import { solidProfile } from './solid.ts';
import { HELD_OUT_PROFILES, SCHEDULING_PROFILES, SINGLE_SITE_TUNING_PROFILES, TUNING_PROFILES } from './split.ts';
import { universityProfile } from './university.ts';

export type { Profile, ProfileSite } from './profile.ts';

/** Every concrete profile by name. */
export const PROFILES: ReadonlyMap<string, Profile> = new Map(
  [
    dbtuneProfile,
    openlylocalProfile,
    deriProfile,
    rossettiProfile,
    modernProfile,
    beebotRasProfile,
    beebotUnivProfile,
    portalProfile,
    campusProfile,
    instituteProfile,
    ckanProfile,
    museumProfile,
    universityProfile,
    ontologyProfile,
    opendataProfile,
    solidProfile,
    banditLateProfile,
    banditDryProfile,
    banditRichProfile,
    banditManyProfile,
  ].map((p) => [p.name, p]),
);

/**
 * Meta-profiles (`generated-<seed>` names a generated site set): `thesis` = the four thesis PLDs (§11), `tuning`
 * and `held-out` = the split of the simulated profiles (design and tuning only on `tuning`; headline figures on `held-out`), `scheduling` = the bandit's changing site sets, `mixed` =
 * the tuning profiles before portal-like joined them (the web every earlier figure, e.g. bench:throughput's, was
 * measured on, kept as it was), `all` = everything.
 */
export const META_PROFILES: Readonly<Record<string, readonly string[]>> = {
  thesis: ['dbtune-like', 'openlylocal-like', 'deri-like', 'rossetti-like'],
  tuning: TUNING_PROFILES,
  'held-out': HELD_OUT_PROFILES,
  scheduling: SCHEDULING_PROFILES,
  mixed: ['dbtune-like', 'openlylocal-like', 'deri-like', 'rossetti-like', 'modern-like', 'beebot-ras', 'beebot-univ'],
  all: [...PROFILES.keys()],
};

export { HELD_OUT_PROFILES, SCHEDULING_PROFILES, SINGLE_SITE_TUNING_PROFILES, TUNING_PROFILES };

/** Expands names (comma-separated strings allowed, meta-profiles expanded) into profiles, in order, without repeats. */
export function resolveProfiles(names: string | readonly string[]): Profile[] {
  const list = (typeof names === 'string' ? [names] : names).flatMap((n) => n.split(',')).map((n) => n.trim()).filter((n) => n !== '');
  const out: Profile[] = [];
  for (const name of list) {
    for (const concrete of META_PROFILES[name] ?? [name]) {
      const generated = GENERATED_PATTERN.exec(concrete);
      const profile = generated ? generatedProfile(Number(generated[1])) : PROFILES.get(concrete);
      if (!profile) {
        throw new ArgumentError(`unknown simweb profile "${name}"; known: ${[...PROFILES.keys(), ...Object.keys(META_PROFILES)].join(', ')}, generated-<seed>`);
      }
      if (!out.some((p) => p.name === profile.name)) out.push(profile);
    }
  }
  if (out.length === 0) throw new ArgumentError('no simweb profile given; try --profile thesis');
  return out;
}
