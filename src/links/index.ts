// Public face of `links/`: URL normalisation and link extraction from HTML and sitemaps.
export {
  
  
  
  
  
  
  normalizeUrl,
  pldOf,
} from './normalize-url.ts';
export { type ExtractLinksOptions, extractLinks } from './extract-links.ts';
export { PageScan, scanPage } from './page-scan.ts';
export { extractSitemapUrls } from './extract-sitemap-urls.ts';
