// **Relevancy_R** predicts whether a link leads to an RDF document, recording every rule that fired (thesis §4, §8.2).
import type { ConceptSets } from './concepts.ts';
import { type DerivedLinkFeatures, pathTextLower } from './link-features.ts';
import type { Label } from './types.ts';

/** The rules of Relevancy_R, in the thesis's order (Figure 4-1). */
export const R_RULES = ['ex1', 'ty1', 'ti1', 'an1', 'co1', 'ty2', 'ti2', 'an2', 'co2', 'pa1'] as const;
type RRule = (typeof R_RULES)[number];

/** Rule recorded for a link inside an RDF document that has no extension (labelled R, thesis §8.2). */
const RDF_LINK_NO_EXTENSION_RULE = 'ex0';

/** A Relevancy_R verdict: `R` when any rule fired, else `H` (HTML extension or none) or `N`. */
export interface RVerdict {
  label: Extract<Label, 'R' | 'H' | 'N'>;
  /** All rules that fired, in `R_RULES` order. */
  rules: string[];
}

/** Concept words grouped by their first token, built once per concept set (so a lookup costs one Map probe per token). */
const byFirstToken = new WeakMap<ConceptSets, Map<string, (readonly string[])[]>>();

function conceptIndex(concepts: ConceptSets): Map<string, (readonly string[])[]> {
  let index = byFirstToken.get(concepts);
  if (index === undefined) {
    index = new Map();
    for (const concept of concepts.rdfConcepts) {
      const list = index.get(concept[0]!) ?? [];
      list.push(concept);
      index.set(concept[0]!, list);
    }
    byFirstToken.set(concepts, index);
  }
  return index;
}

/** Per concept set, a pattern matching any concept word's first token anywhere in a text. */
const firstTokenPattern = new WeakMap<ConceptSets, RegExp>();

/**
 * Whether lower-case `text` may hold a concept word: false when no concept word's first token occurs in it even as a
 * substring. Every token of `tokenize(text)` is a substring of the lower-cased text, so when this is false
 * `hasRdfConcept(tokenize(text))` is false too, and the text need not be tokenised (most links' context and anchor).
 */
export function mayHaveRdfConcept(text: string, concepts: ConceptSets): boolean {
  let pattern = firstTokenPattern.get(concepts);
  if (pattern === undefined) {
    const firsts = [...conceptIndex(concepts).keys()].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = firsts.length === 0 ? /$^/ : new RegExp(firsts.join('|'));
    firstTokenPattern.set(concepts, pattern);
  }
  return pattern.test(text);
}

/** Whether any concept word of S_RdfConcept occurs in `tokens` as consecutive whole tokens (word boundaries). */
export function hasRdfConcept(tokens: readonly string[], concepts: ConceptSets): boolean {
  const index = conceptIndex(concepts);
  for (let i = 0; i < tokens.length; i++) {
    const candidates = index.get(tokens[i]!);
    if (candidates === undefined) continue;
    for (const concept of candidates) {
      let j = 1;
      while (j < concept.length && tokens[i + j] === concept[j]) j++;
      if (j === concept.length) return true;
    }
  }
  return false;
}

// A media type inside free text counts only when not glued to more type characters (`text/n3x` is not `text/n3`);
// trailing sentence punctuation (`text/n3.`) is not glue.
const GLUED_BEFORE = /[a-z0-9+.\-/]/;
const GLUED_AFTER = /^[+.\-/]*[a-z0-9]/;

/** Whether lower-case `text` contains an RDF media type of S_RDFContentType. */
export function containsRdfContentType(text: string, concepts: ConceptSets): boolean {
  if (!text.includes('/')) return false;
  for (const type of concepts.rdfContentTypes) {
    let at = text.indexOf(type);
    while (at !== -1) {
      const before = at === 0 ? '' : text[at - 1]!;
      const after = text.slice(at + type.length, at + type.length + 8);
      if (!GLUED_BEFORE.test(before) && !GLUED_AFTER.test(after)) return true;
      at = text.indexOf(type, at + 1);
    }
  }
  return false;
}

/** Relevancy_R(∏L, C_R) for a link found in an HTML page (thesis §4). Pure. */
export function judgeRelevancyR(f: DerivedLinkFeatures, concepts: ConceptSets): RVerdict {
  const ext = f.parts.extension;
  const typeMedia = f.type === '' ? '' : f.type.split(';', 1)[0]!.trim();
  // Every rule in R_RULES order, each decided once (no per-link record: it would cost on every link). The concept rules look at
  // the lower-cased text first (`mayHaveRdfConcept`) and tokenise only when a concept word may occur in it; for the
  // path, every token of `pathTokens` is a substring of `pathTextLower` (null when percent escapes forbid the look).
  let rules: string[] | null = null;
  const fire = (rule: RRule): void => {
    if (rules === null) rules = [rule];
    else rules.push(rule);
  };
  if (ext !== null && concepts.rdfExtensions.has(ext)) fire('ex1');
  if (typeMedia !== '' && concepts.rdfContentTypes.has(typeMedia)) fire('ty1');
  if (containsRdfContentType(f.title, concepts)) fire('ti1');
  if (containsRdfContentType(f.anchor, concepts)) fire('an1');
  if (containsRdfContentType(f.context, concepts)) fire('co1');
  if (f.type !== '' && mayHaveRdfConcept(f.type, concepts) && hasRdfConcept(f.tokens.type, concepts)) fire('ty2');
  if (f.title !== '' && mayHaveRdfConcept(f.title, concepts) && hasRdfConcept(f.tokens.title, concepts)) fire('ti2');
  if (f.anchor !== '' && mayHaveRdfConcept(f.anchor, concepts) && hasRdfConcept(f.tokens.anchor, concepts)) fire('an2');
  if (f.context !== '' && mayHaveRdfConcept(f.context, concepts) && hasRdfConcept(f.tokens.context, concepts)) fire('co2');
  if (f.parts.segments.length > 0) {
    const path = pathTextLower(f.parts);
    if ((path === null || mayHaveRdfConcept(path, concepts)) && hasRdfConcept(f.tokens.path, concepts)) fire('pa1');
  }
  if (rules !== null) return { label: 'R', rules };
  return { label: labelByExtension(ext, concepts), rules: [] };
}

/** Without an R rule: HTML extension or none → `H`, anything else → `N` (thesis §4). */
export function labelByExtension(ext: string | null, concepts: ConceptSets): 'H' | 'N' {
  return ext === null || concepts.htmlExtensions.has(ext) ? 'H' : 'N';
}

/**
 * A link inside an RDF document, judged by extension alone (thesis §8.2): RDF extension (`ex1`) or none (`ex0`)
 * → `R`; HTML extension → `H`; anything else → `N`. Pure.
 */
export function judgeRdfDocumentLink(f: DerivedLinkFeatures, concepts: ConceptSets): RVerdict {
  const ext = f.parts.extension;
  if (ext === null) return { label: 'R', rules: [RDF_LINK_NO_EXTENSION_RULE] };
  if (concepts.rdfExtensions.has(ext)) return { label: 'R', rules: ['ex1'] };
  return { label: concepts.htmlExtensions.has(ext) ? 'H' : 'N', rules: [] };
}
