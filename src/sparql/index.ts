// Public face of the SPARQL subsystem: query the crawl state in-process, format results, serve an endpoint.
export {
  CRAWL_GRAPH,
  CRAWL_PREFIXES,
  CRAWL_TERMS,
  DCTERMS,
  HTTP,
  PROV,
  RS,
  recordToQuads,
  redirectHopIri,
} from './crawl-vocab.ts';
export { type Endpoint, type EndpointOptions, startEndpoint } from './endpoint.ts';
export { negotiate } from './negotiate.ts';
export {
  csvField,
  FORMATS_BY_KIND,
  type FormatOptions,
  formatResult,
  MEDIA_TYPES,
  type ResultFormat,
  termToJson,
  termToNt,
} from './format-results.ts';
export { type BindingRow, type QueryOptions, QueryRefusedError, type QueryResult, resolveQueryOptions, runQuery } from './query-engine.ts';
