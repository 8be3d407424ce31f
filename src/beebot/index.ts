// The public face of BeeBot mode (BeeBot §2): link tables and the site list in the crawl state.
export {
  type ExternalLinkRow,
  type InternalLinkRow,
  linkKey,
  markNotAvailable,
  readBadLinks,
  readSites,
  type SiteRow,
  stageLinkTables,
  stageSites,
} from './link-tables.ts';
