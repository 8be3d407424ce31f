// **Filters**: the link filter NF and the fetch filters CTF and EXF (thesis §7, §10).
import { type ConceptSets, isHtmlContentType, isRdfContentType } from './concepts.ts';
import type { Label } from './types.ts';
import { extensionOfUrl } from './url-parts.ts';

/** Link filter NF (thesis §7 step 3a): true when the link has a known non-semantic extension and must be dropped. */
export function isNonSemanticLink(url: string, concepts: ConceptSets): boolean {
  const ext = extensionOfUrl(url);
  return ext !== null && concepts.nonSemanticExtensions.has(ext);
}

/**
 * Fetch filter CTF (thesis §7 step 2): read the body when the Content-Type is HTML or an RDF type, or when the link
 * was predicted `R` (the label overrides a misleading header, e.g. RDF served as `application/xml`, thesis §11).
 */
export function passesCtf(contentType: string | null, label: Label | null, concepts: ConceptSets): boolean {
  return label === 'R' || isHtmlContentType(contentType) || isRdfContentType(contentType, concepts);
}

/**
 * BC's fetch filters (thesis §10): CTF on the content type alone (HTML or RDF type), or EXF on the URL's file
 * extension (a known RDF extension). Keeps HTML and known RDF types/extensions; RDF served as
 * `application/xml` from a `.xml` URL passes neither (thesis §11, PLD 3).
 */
export function passesCtfOrExf(url: string, contentType: string | null, concepts: ConceptSets): boolean {
  if (isHtmlContentType(contentType) || isRdfContentType(contentType, concepts)) return true;
  const ext = extensionOfUrl(url);
  return ext !== null && concepts.rdfExtensions.has(ext);
}
