// **Concept sets** C_R of the relevance rules (thesis §4), plus the HTML and non-semantic extension lists (§7).
import { readFileSync } from 'node:fs';
import { RdfscoutError } from '../errors.ts';

/** The concept sets as the rules use them: lower case, extensions without a dot, concept words pre-tokenised. */
export interface ConceptSets {
  /** S_RDFContentType: RDF media types, e.g. `text/turtle`. */
  readonly rdfContentTypes: ReadonlySet<string>;
  /** S_RdfConcept: RDF words, each as its tokens (`'json ld'` → `['json', 'ld']`). */
  readonly rdfConcepts: readonly (readonly string[])[];
  /** S_RdfExtension: RDF file extensions without the dot, e.g. `ttl`. */
  readonly rdfExtensions: ReadonlySet<string>;
  /** Extensions of HTML pages (a link with one, or none, and no R rule is labelled H). */
  readonly htmlExtensions: ReadonlySet<string>;
  /** Known non-semantic extensions, dropped by the link filter NF. */
  readonly nonSemanticExtensions: ReadonlySet<string>;
}

/** The parsed JSON files of `data/concepts/` (each `{ "_comment": …, "values": [...] }`), as plain string lists. */
export interface ConceptLists {
  rdfContentTypes: readonly string[];
  rdfConcepts: readonly string[];
  rdfExtensions: readonly string[];
  htmlExtensions: readonly string[];
  nonSemanticExtensions: readonly string[];
}

/** Media types of HTML documents (for the fetch filter CTF, thesis §7). */
const HTML_CONTENT_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Splits text into lower-case word tokens: on every non-alphanumeric character and on camelCase humps, so a concept
 * word matches on word boundaries only (`rdf` matches `RDF`, `foaf-profile`, `myRdf`; not `wordfile`).
 */
export function tokenize(text: string): string[] {
  if (text === '') return [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');
}

/** Builds the concept sets from plain lists (normalises case and leading dots). Pure. */
export function buildConceptSets(lists: ConceptLists): ConceptSets {
  const ext = (values: readonly string[]) => new Set(values.map((v) => v.trim().toLowerCase().replace(/^\./, '')));
  return {
    rdfContentTypes: new Set(lists.rdfContentTypes.map((v) => v.trim().toLowerCase())),
    rdfConcepts: lists.rdfConcepts.map((v) => tokenize(v)).filter((tokens) => tokens.length > 0),
    rdfExtensions: ext(lists.rdfExtensions),
    htmlExtensions: ext(lists.htmlExtensions),
    nonSemanticExtensions: ext(lists.nonSemanticExtensions),
  };
}

const FILES: Record<keyof ConceptLists, string> = {
  rdfContentTypes: 'rdf-content-types.json',
  rdfConcepts: 'rdf-concepts.json',
  rdfExtensions: 'rdf-extensions.json',
  htmlExtensions: 'html-extensions.json',
  nonSemanticExtensions: 'non-semantic-extensions.json',
};

/** Reads the concept lists of a `data/concepts/`-like folder (the only I/O of `relevance/`). */
export function readConceptLists(dir: URL | string = new URL('../../data/concepts/', import.meta.url)): ConceptLists {
  const read = (file: string): string[] => {
    const path = typeof dir === 'string' ? `${dir.replace(/\/$/, '')}/${file}` : new URL(file, dir);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (cause) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Cannot read concept file ${String(path)}: is the data/ folder installed?`, { cause });
    }
    const values = (parsed as { values?: unknown }).values;
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
      throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Concept file ${String(path)} needs a "values" array of strings.`);
    }
    return values;
  };
  return {
    rdfContentTypes: read(FILES.rdfContentTypes),
    rdfConcepts: read(FILES.rdfConcepts),
    rdfExtensions: read(FILES.rdfExtensions),
    htmlExtensions: read(FILES.htmlExtensions),
    nonSemanticExtensions: read(FILES.nonSemanticExtensions),
  };
}

/** Cache of {@link defaultConceptSets}: the files do not change while the process runs. */
let defaults: ConceptSets | undefined;

/** The concept sets of `data/concepts/`, read once on first use. */
export function defaultConceptSets(): ConceptSets {
  defaults ??= buildConceptSets(readConceptLists());
  return defaults;
}

/** The media type of a Content-Type header value, lower case, without parameters (`null` when absent). */
export function mediaTypeOf(contentType: string | null | undefined): string | null {
  if (contentType == null) return null;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? null : type;
}

/** Whether a Content-Type names an RDF media type of S_RDFContentType. */
export function isRdfContentType(contentType: string | null | undefined, concepts: ConceptSets): boolean {
  const type = mediaTypeOf(contentType);
  return type !== null && concepts.rdfContentTypes.has(type);
}

/** Whether a Content-Type names HTML (`text/html`, `application/xhtml+xml`). */
export function isHtmlContentType(contentType: string | null | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type !== null && HTML_CONTENT_TYPES.has(type);
}
