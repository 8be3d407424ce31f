// **Pattern ceiling**: the best precision any URL-pattern predictor could reach on a web (thesis §5, §9).
import { urlTemplate } from '../links/url-template.ts';
import type { Label } from '../relevance/types.ts';

export { urlTemplate };

/** One URL of the web with its true label and whether it is fetched successfully (status 200 after redirects). */
export interface CeilingItem {
  url: string;
  label: Label;
  ok: boolean;
}

/** The ceiling of one label at one number of predictions. */
export interface PatternCeiling {
  label: Label;
  /** Predictions the ceiling is computed at (a crawler's N_LS), capped at `pages`. */
  n: number;
  /** Best precision a URL-template predictor labelling `n` pages reaches; null when `n` is 0. */
  precision: number | null;
  /** Share of the label among all candidate pages (what a predictor that knows nothing reaches). */
  base: number | null;
  /** Candidate pages (status 200: every one for `R`, HTML pages — truly H or HR — for `HR`). */
  pages: number;
  templates: number;
}

/**
 * The best precision a URL-pattern predictor could reach labelling `n` pages as `label`: it knows,
 * for every URL template, the share of its pages that truly are `label`, and picks the templates with the highest
 * shares first (the last one partly, at its share). A crawler's precision near this ceiling means the web does not
 * let URL patterns tell better; far below it means a weak predictor. Candidates: status-200 URLs (`R`), or the
 * status-200 HTML pages, truly H or HR (`HR`, thesis §2). Pure; O(pages + templates log templates).
 */
export function patternCeiling(items: Iterable<CeilingItem>, label: 'R' | 'HR', n: number): PatternCeiling {
  const groups = new Map<string, { pages: number; hits: number }>();
  let pages = 0;
  let hits = 0;
  for (const it of items) {
    if (!it.ok) continue;
    if (label === 'HR' && it.label !== 'H' && it.label !== 'HR') continue;
    const key = urlTemplate(it.url);
    const g = groups.get(key) ?? { pages: 0, hits: 0 };
    g.pages += 1;
    const hit = it.label === label;
    if (hit) g.hits += 1;
    groups.set(key, g);
    pages += 1;
    if (hit) hits += 1;
  }
  const ranked = [...groups.values()].sort((a, b) => b.hits / b.pages - a.hits / a.pages || b.pages - a.pages);
  const want = Math.max(0, Math.min(Math.floor(n), pages));
  let taken = 0;
  let got = 0;
  for (const g of ranked) {
    if (taken >= want) break;
    const take = Math.min(g.pages, want - taken);
    got += (g.hits / g.pages) * take;
    taken += take;
  }
  return { label, n: want, precision: want === 0 ? null : got / want, base: pages === 0 ? null : hits / pages, pages, templates: groups.size };
}
