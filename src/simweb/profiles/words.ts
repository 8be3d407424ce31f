// Word lists for plausible names, titles and slugs in simulated sites.
import type { Prng } from '../../random/prng.ts';

export const FIRST = ['john', 'mary', 'aidan', 'siobhan', 'liam', 'nora', 'conor', 'aoife', 'peter', 'anna', 'michael', 'sara', 'david', 'laura', 'sean', 'ciara', 'paul', 'eva', 'tom', 'ines'];
export const LAST = ['smith', 'murphy', 'kelly', 'byrne', 'walsh', 'ryan', 'oconnor', 'doyle', 'brennan', 'lynch', 'fischer', 'rossi', 'novak', 'petrov', 'garcia', 'dubois', 'khan', 'ito', 'berg', 'moreau'];
export const TOWNS = ['ashford', 'bramley', 'carlton', 'denby', 'eastwood', 'fairfield', 'greenhill', 'hartley', 'ivybridge', 'kingsley', 'langford', 'millbrook', 'newport', 'oakham', 'pembury', 'redhill', 'stanton', 'thornbury', 'westfield', 'yarwood'];
export const TOPICS = ['linked data', 'semantic web', 'ontologies', 'reasoning', 'search', 'sensors', 'e-learning', 'health data', 'open government', 'social networks', 'digital libraries', 'music metadata', 'provenance', 'query engines', 'data quality'];
export const WORDS = ['archive', 'report', 'annual', 'meeting', 'research', 'project', 'study', 'collection', 'notes', 'review', 'summary', 'catalogue', 'history', 'survey', 'edition', 'letters', 'poems', 'drawings', 'studies', 'records'];

/** A lower-case slug of two picks, e.g. `mary-walsh`. */
export function personSlug(rng: Prng): string {
  return `${rng.pick(FIRST)}-${rng.pick(LAST)}`;
}

/** Title-cases a slug or path segment: `mary-walsh` → `Mary Walsh`. */
export function titleOf(segment: string): string {
  const words = segment
    .replace(/\.[a-z0-9]+$/, '')
    .split(/[-_]+/)
    .filter((w) => w.length > 0);
  return words.map((w) => (w[0] ?? '').toUpperCase() + w.slice(1)).join(' ');
}
