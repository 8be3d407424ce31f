// **HTML variants** of content-negotiated resources: the link to ask a resource URI for its HTML.
import type { LinkFeatures } from './types.ts';

/**
 * Marks a frontier URL as "this resource URI, asked for HTML". A fragment is never sent to the server (the fetcher
 * drops it), so the request is the resource URI itself; the mark only keeps it apart from the RDF fetch of that URI.
 */
export const HTML_VARIANT_FRAGMENT = '#rdfscout-html-variant';

/** Accept header of an HTML-variant fetch: HTML first, RDF still acceptable (a server without HTML answers RDF). */
export const HTML_VARIANT_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,application/rdf+xml;q=0.2,text/turtle;q=0.2,*/*;q=0.1';

/** Whether a frontier URL asks for a resource's HTML variant. */
export function isHtmlVariant(url: string): boolean {
  return url.endsWith(HTML_VARIANT_FRAGMENT);
}

/** The frontier URL of the HTML variant of resource `uri` (its own fragment, if any, replaced). */
export function htmlVariantOf(uri: string): string {
  const hash = uri.indexOf('#');
  return `${hash < 0 ? uri : uri.slice(0, hash)}${HTML_VARIANT_FRAGMENT}`;
}

/**
 * The resource URI whose content negotiation a fetch went through: the source of its last 303 hop (the Linked Data
 * pattern of a resource URI, thesis §11 dbtune; a legacy 301 may come first), or null when there was none. Only
 * then is there an HTML variant to ask for.
 */
export function negotiatedResource(url: string, redirects: ReadonlyArray<{ from: string; status: number }>): string | null {
  if (isHtmlVariant(url)) return null;
  for (let i = redirects.length - 1; i >= 0; i--) if (redirects[i]?.status === 303) return redirects[i]?.from ?? null;
  return null;
}

/** The link to a resource's HTML variant, as the strategy judges it (`tag: 'variant'`, no anchor or context). */
export function htmlVariantLink(uri: string): LinkFeatures {
  return { url: htmlVariantOf(uri), tag: 'variant', anchor: '', title: '', type: 'text/html', rel: 'alternate', context: '' };
}
