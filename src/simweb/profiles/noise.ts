// The real web's mess added to every simulated site: files, broken links, server errors, duplicates, robots, slow pages, a calendar trap.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { linkTarget } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';

/** Shares of extra documents, relative to the site's documents before noise. */
export interface NoiseOptions {
  /** Share of URLs answering 404/5xx (the thesis saw ~7% errors overall, §11 Table 4-3). Default 0.06. */
  errorRate?: number;
  /** Share of images, PDFs and archives (label `N`). Default 0.05. */
  binaryRate?: number;
  /** Share of HTML pages also reachable under a second URL. Default 0.02. */
  duplicateRate?: number;
  /** Share of pages under robots-disallowed paths. Default 0.01. */
  disallowRate?: number;
  /** Share of documents answering slowly. Default 0.01. */
  slowRate?: number;
}

const BINARY_EXT = ['jpg', 'jpg', 'png', 'pdf', 'pdf', 'zip', 'gif', 'gz'];

/** Adds noise documents linked from random HTML pages among `pages`. Does not shorten existing depths. */
export function addNoise(b: SiteBuilder, rng: Prng, pages: readonly number[], options: NoiseOptions = {}): void {
  const n = b.docs.length;
  const errorRate = options.errorRate ?? 0.06;
  const count = (rate: number): number => Math.round(n * rate);
  if (pages.length === 0) return;

  for (let i = 0, k = count(options.binaryRate ?? 0.05); i < k; i++) {
    const ext = rng.pick(BINARY_EXT);
    const dir = ext === 'pdf' ? 'docs' : ext === 'zip' || ext === 'gz' ? 'archive' : 'images';
    const id = b.binary(`/media/${dir}/file-${i}.${ext}`);
    b.link(rng.pick(pages), id, ext === 'pdf' || ext === 'zip' || ext === 'gz' ? LinkStyle.download : LinkStyle.plain);
  }
  // Errors: three quarters broken links (404), the rest server errors.
  for (let i = 0, k = Math.round((n * errorRate) / (1 - errorRate)); i < k; i++) {
    const from = rng.pick(pages);
    const id = rng.chance(0.75)
      ? b.error(`${b.docs[from]?.path.replace(/[?#].*$/, '').replace(/\/$/, '')}/old-${i}`, rng.chance(0.9) ? 404 : 410)
      : b.error(`/cgi-bin/search?q=${i}`, rng.chance(0.6) ? 500 : 503);
    b.link(from, id);
  }
  // Duplicates: a page linked from one of its own parents under an `index.php?id=` alias (same depth).
  for (let i = 0, k = count(options.duplicateRate ?? 0.02); i < k; i++) {
    const parent = rng.pick(pages);
    const targets = b.docs[parent]?.links.map(linkTarget).filter((t) => b.docs[t]?.kind === 'html' && t !== 0) ?? [];
    if (targets.length === 0) continue;
    const original = rng.pick(targets);
    const path = `/index.php?id=${original}`;
    if (b.has(path)) continue;
    b.link(parent, b.duplicate(original, path));
  }
  const disallowed = count(options.disallowRate ?? 0.01);
  if (disallowed > 0) {
    b.robots.disallow.push('/private/', '/admin/');
    for (let i = 0; i < disallowed; i++) {
      const id = b.html(`/private/${rng.chance(0.5) ? 'staff' : 'drafts'}/page-${i}`);
      b.link(rng.pick(pages), id);
      b.link(id, 0);
    }
  }
  for (let i = 0, k = count(options.slowRate ?? 0.01); i < k; i++) {
    const doc = b.docs[rng.int(1, b.docs.length - 1)];
    if (doc) doc.slow = true;
  }
}

/** Adds the calendar trap under `path` (materialises `months` months; later months are served on demand). */
export function addCalendar(b: SiteBuilder, from: number, path: string, firstYear: number, months: number): void {
  b.calendar = { path, firstMonth: `${firstYear}-01`, months };
  let prev = -1;
  for (let m = 0; m < months; m++) {
    const id = b.html(`${path}?month=${monthName(firstYear, m)}`);
    if (m === 0) b.link(from, id);
    if (prev >= 0) {
      b.link(prev, id, LinkStyle.next);
      b.link(id, prev, LinkStyle.prev);
    }
    b.link(id, 0);
    prev = id;
  }
}

/** `YYYY-MM` of the m-th month after January of `firstYear`. */
export function monthName(firstYear: number, m: number): string {
  const y = firstYear + Math.floor(m / 12);
  return `${String(y).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;
}
