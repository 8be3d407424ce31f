// **paginate** lays a listing's items out over pages linked by `next »` / `« previous`, as the profiles' listings do.
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle } from '../types.ts';

/**
 * Links `items` from listing `first` (page 1), `perPage` to a page; later pages are `base` + `page=n` (with `?` or
 * `&`), linked `next »` / `« previous`, and pushed to `pages`.
 */
export function paginate(b: SiteBuilder, first: number, base: string, items: readonly number[], pages: number[], perPage: number): void {
  let page = first;
  items.forEach((item, i) => {
    if (i > 0 && i % perPage === 0) {
      const next = b.html(`${base}${base.includes('?') ? '&' : '?'}page=${i / perPage + 1}`);
      b.link(page, next, LinkStyle.next);
      b.link(next, page, LinkStyle.prev);
      pages.push(next);
      page = next;
    }
    b.link(page, item);
  });
}
