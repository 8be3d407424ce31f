// **simwebHtmlPages**: the first HTML pages (status 200) of a simulated web, a page of each site in turn, as the
// crawl-path micro-benchmarks read them.
import { buildWeb, respond } from '../../src/simweb/index.ts';

/** One HTML page as the simulated web serves it. */
export interface SimwebHtmlPage {
  url: string;
  body: Buffer;
  html: string;
  contentType: string;
}

/** Up to `max` HTML pages of the web of `profiles` (seed 1, scale 1), taking the i-th document of every site in turn. */
export function simwebHtmlPages(profiles: string, max: number): SimwebHtmlPage[] {
  const web = buildWeb({ profiles, scale: 1, seed: 1 });
  const pages: SimwebHtmlPage[] = [];
  for (let i = 0; pages.length < max; i++) {
    let any = false;
    for (const site of web.sites) {
      const doc = site.docs[i];
      if (doc === undefined) continue;
      any = true;
      if (doc.kind !== 'html' || doc.status !== 200) continue;
      const url = `http://${site.host}${doc.path}`;
      const r = respond(web, url, 'text/html');
      const contentType = String(r.headers['content-type']);
      if (r.status !== 200 || !contentType.includes('html')) continue;
      pages.push({ url, body: r.body, html: r.body.toString('utf8'), contentType });
      if (pages.length >= max) break;
    }
    if (!any) break;
  }
  return pages;
}
