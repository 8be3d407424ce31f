// The public face of BeeBot mode (BeeBot §2): link tables and the site list in the crawl state.
export {
  
  
  
  markNotAvailable,
  
  
  
  readSites,
  type SiteRow,
  stageLinkTables,
  stageSites,
} from './link-tables.ts';
