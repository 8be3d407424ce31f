// The tuning / held-out split of the simulated-web profiles: strategies are designed and tuned on the
// first, and every headline figure is measured on the second.

/**
 * Profiles any strategy may be designed and tuned on: the thesis's four sites (thesis §11), the modern shop and
 * BeeBot's site sets, and portal-like (an open-data portal full of barren links, so the
 * yield strategy's exploration is tuned on one without looking at the held-out ckan-like) and campus-like (a university
 * with an endless events calendar and a research-data repository: the calendar and portal traps, written without
 * looking at the held-out university-like or ckan-like) and institute-like (people several hops deep in a staff
 * directory, FOAF under three URL shapes, most people without: written from real institutes' sites).
 */
export const TUNING_PROFILES: readonly string[] = ['dbtune-like', 'openlylocal-like', 'deri-like', 'rossetti-like', 'modern-like', 'portal-like', 'campus-like', 'institute-like', 'beebot-ras', 'beebot-univ'];

/** The tuning profiles with one site (the thesis experiment crawls one site per profile): what the tuning benches crawl. */
export const SINGLE_SITE_TUNING_PROFILES: readonly string[] = TUNING_PROFILES.filter((p) => !p.startsWith('beebot-'));

/**
 * Profiles never tuned on. Their design was committed before any strategy was tuned, and must not
 * change to make a strategy's figures look better. `opendata-like` and `solid-like` were written blind
 * (without reading the other data-portal, campus or held-out generators, any strategy or relevance code) and their
 * design committed (05e6396) before any strategy but breadth-first and the oracle was run on them.
 */
export const HELD_OUT_PROFILES: readonly string[] = ['ckan-like', 'museum-like', 'university-like', 'ontology-like', 'opendata-like', 'solid-like'];

/**
 * Site sets for the PLD scheduler only (yields that change during the crawl). They are split by
 * generator seed instead: the bandit policies are tuned on seeds 1–10 and their figures reported on seeds 11–20.
 * Kept out of `mixed` so that earlier figures measured on it stay comparable.
 */
export const SCHEDULING_PROFILES: readonly string[] = ['bandit-late', 'bandit-dry', 'bandit-rich', 'bandit-many'];
