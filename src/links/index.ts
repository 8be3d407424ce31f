// Public face of `links/`: URL normalisation and link extraction from HTML and sitemaps.
export type { BadLink, LinkFeatures, LinkTag } from './types.ts';
export {
  DEFAULT_MAX_URL_LENGTH,
  extensionOf,
  hostOf,
  type NormalizeMode,
  type NormalizeOptions,
  type NormalizeResult,
  normalizeUrl,
  pldOf,
} from './normalize-url.ts';
export { type ExtractedLinks, type ExtractLinksOptions, extractLinks } from './extract-links.ts';
export { PageScan, type ScriptBlock, scanPage } from './page-scan.ts';
export { extractSitemapUrls, type SitemapUrls } from './extract-sitemap-urls.ts';
export { seedToUrl } from './seed-url.ts';
export { urlTemplate } from './url-template.ts';
export { HTML_VARIANT_ACCEPT, HTML_VARIANT_FRAGMENT, htmlVariantLink, htmlVariantOf, isHtmlVariant, negotiatedResource } from './html-variant.ts';
