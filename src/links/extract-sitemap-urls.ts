// **extractSitemapUrls** reads the `<loc>` URLs of a sitemap.xml or a sitemap index, in one linear scan.
import type { BadLink } from './types.ts';
import { type NormalizeMode, normalizeUrl } from './normalize-url.ts';

export interface SitemapUrls {
  /** `index` for a `<sitemapindex>` (its locs are further sitemaps), else `urlset`. */
  kind: 'index' | 'urlset';
  /** Distinct normalised URLs in document order. */
  urls: string[];
  bad: BadLink[];
}

// `<loc>` with an optional namespace prefix; its content may be a CDATA section.
const LOC_RE = /<(?:[\w.-]+:)?loc\b[^>]*>([^<]*(?:<!\[CDATA\[[\s\S]*?\]\]>[^<]*)?)<\/(?:[\w.-]+:)?loc>/gi;
const INDEX_RE = /<(?:[\w.-]+:)?sitemapindex\b/i;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Extracts the `<loc>` URLs of a sitemap (resolved against `base`, normalised); malformed ones go to `bad`. */
export function extractSitemapUrls(xml: string, base: string, opts: { normalize?: NormalizeMode; maxUrls?: number } = {}): SitemapUrls {
  const max = opts.maxUrls ?? 50_000; // the sitemaps.org limit per file
  const urls: string[] = [];
  const bad: BadLink[] = [];
  const seen = new Set<string>();
  for (const m of xml.matchAll(LOC_RE)) {
    if (urls.length >= max) break;
    const raw = decodeXml((m[1] ?? '').replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')).trim();
    const res = normalizeUrl(raw, base, { mode: opts.normalize ?? 'standard' });
    if (!res.ok) {
      if (bad.length < max) bad.push({ href: raw, page: base, reason: res.reason });
    } else if (!seen.has(res.url)) {
      seen.add(res.url);
      urls.push(res.url);
    }
  }
  return { kind: INDEX_RE.test(xml.slice(0, 4096)) ? 'index' : 'urlset', urls, bad };
}

function decodeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}
