// Public face of the SPARQL subsystem: query the crawl state in-process, format results, serve an endpoint.
export { type Endpoint, startEndpoint } from './endpoint.ts';
export {
  
  FORMATS_BY_KIND,
  
  formatResult,
  
  type ResultFormat,
  
  
} from './format-results.ts';
export { runQuery } from './query-engine.ts';
