// Public face of `crawl-log/`: what a crawl did, one record per fetch — the records, their store, the running tally,
// and the crawl graph (`urn:rdfscout:crawl`) read from them.
export { CrawlGraphView } from './crawl-graph-view.ts';
export { CRAWL_GRAPH, CRAWL_PREFIXES, CRAWL_TERMS, DCTERMS, HTTP, PROV, RS, recordToQuads, redirectHopIri } from './crawl-vocab.ts';
export { type CrawlRecord, isFetchedOk, isRdfDocument, isRdfObtained, SUCCESS_STATUS } from './record.ts';
export { lastSeq, readRecords, stageRecordWrite } from './record-store.ts';
export { type CrawlSummary, CrawlTally, isRdfRecord, type PldTally } from './tally.ts';
