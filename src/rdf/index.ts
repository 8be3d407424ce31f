// **rdf/** parses fetched documents (RDF and RDF embedded in HTML) and stores them, one named graph per document.
export { detectType, normaliseMediaType } from './sniff.ts';
export { parseDocument, parseRdfDocumentInto } from './parse-document.ts';
export { pageScanFor, parseEmbedded, SCAN_SCRIPT_TYPES } from './parse-embedded.ts';
export { type ParseOptions, resolveParseOptions } from './parse-options.ts';
export { isParsableRdfType } from './parse-formats.ts';
export { LocalContextLoader, listShippedContexts } from './context-loader.ts';
export { checkXmlEntities } from './xml-entity-guard.ts';
export {
  countQuads,
  hasGraph,
  listPartials,
  MAX_PARTIAL_QUADS,
  
  
  readDocumentText,
  readPartial,
  stageDocument,
  stageDocuments,
  stagePartial,
} from './document-store.ts';
export { DOC_CHUNK_CHARS, DocumentWriter, isPending } from './document-writer.ts';
export { exportNQuads } from './export.ts';
export type { ParsedDocument, ParseRecovery } from './types.ts';
