// **rdf/** parses fetched documents (RDF and RDF embedded in HTML) and stores them, one named graph per document.
export { detectType, normaliseMediaType, SNIFF_BYTES, worthReading } from './sniff.ts';
export { parseDocument, parseRdfDocumentInto, toError } from './parse-document.ts';
export { pageScanFor, parseEmbedded, SCAN_SCRIPT_TYPES } from './parse-embedded.ts';
export { type ParseConfig, type ParseOptions, resolveParseOptions } from './parse-options.ts';
export { isParsableRdfType } from './parse-formats.ts';
export { CONTEXTS_DIR, LocalContextLoader, listShippedContexts } from './context-loader.ts';
export { checkXmlEntities, DEFAULT_MAX_ENTITY_EXPANSION } from './xml-entity-guard.ts';
export {
  countQuads,
  hasGraph,
  listPartials,
  MAX_PARTIAL_QUADS,
  type PartialInfo,
  type PartialRecord,
  readDocumentText,
  readPartial,
  stageDocument,
  stageDocuments,
  stagePartial,
} from './document-store.ts';
export { DOC_CHUNK_CHARS, DocumentWriter, type DocumentWriterOptions, isPending } from './document-writer.ts';
export { type IndexerOptions, Indexer } from '../state/indexer.ts';
export { type ExportOptions, exportNQuads } from './export.ts';
export type { Detected, ParsedDocument, ParseProblem, ParseRecovery } from './types.ts';
