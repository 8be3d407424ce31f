// **checkXmlEntities** rejects RDF/XML whose DTD declares dangerous entities, before any XML parser sees it.
//
// rdfxml-streaming-parser (saxes) never fetches an external entity and substitutes an internal entity's value
// once, without expanding the references inside it. A "billion laughs" document therefore does not blow up,
// but it yields wrong data (literal "&lol8;" text), and one large entity referenced many times still multiplies
// the text linearly. So: internal entities with plain values (the `<!ENTITY owl "http://…#">` idiom of OWL files)
// are allowed within an expansion budget; parameter entities, external entities (SYSTEM/PUBLIC) and entities
// whose value refers to another entity are refused ("Broken content").
import type { ParseProblem } from './types.ts';

/** Default cap on the characters that entity references may add to a document. */
export const DEFAULT_MAX_ENTITY_EXPANSION = 1024 * 1024;

/**
 * Returns a problem when the XML prolog of `text` declares entities rdfscout refuses, or when the references to
 * the declared entities would add more than `maxExpansion` characters; null when the document may be parsed.
 * Linear in the length of the document.
 */
export function checkXmlEntities(text: string, maxExpansion = DEFAULT_MAX_ENTITY_EXPANSION): ParseProblem | null {
  const doctype = findDoctype(text);
  if (doctype === null) return null;
  const { subset, end } = doctype;
  const entities = new Map<string, number>();
  const decl = /<!ENTITY\s+(%\s+)?([^\s"'>]+)\s+("[^"]*"|'[^']*'|SYSTEM\b|PUBLIC\b)/g;
  for (let m = decl.exec(subset); m !== null; m = decl.exec(subset)) {
    const [, percent, name, value] = m as unknown as [string, string | undefined, string, string];
    const line = lineAt(text, doctype.subsetStart + m.index);
    if (percent !== undefined) return refuse(`declares the parameter entity %${name}; rdfscout does not process DTD parameter entities`, line);
    if (value === 'SYSTEM' || value === 'PUBLIC') {
      return refuse(`declares the external entity &${name}; (${value}); rdfscout never fetches or expands external entities`, line);
    }
    const inner = value.slice(1, -1);
    if (/[&%]/.test(inner)) {
      return refuse(`declares the entity &${name}; whose value refers to other entities (an entity-expansion "billion laughs" pattern)`, line);
    }
    entities.set(name, inner.length);
  }
  if (/<!ENTITY/i.test(subset.replace(decl, ''))) return refuse('has an entity declaration rdfscout cannot check', lineAt(text, doctype.start));
  if (entities.size === 0) return null;
  let added = 0;
  const ref = /&([^\s&;<>"']+);/g;
  const body = text.slice(end);
  for (let m = ref.exec(body); m !== null; m = ref.exec(body)) {
    added += entities.get(m[1]!) ?? 0;
    if (added > maxExpansion) {
      return refuse(`would grow by more than ${maxExpansion} characters through entity references (entity-expansion attack)`, lineAt(text, end + m.index));
    }
  }
  return null;
}

function refuse(what: string, line: number): ParseProblem {
  return { code: 'RDFSCOUT_PARSE_FAILED', message: `The RDF/XML document ${what}; it is not parsed.`, line };
}

/** The internal subset of the `<!DOCTYPE …>` in the prolog, or null when there is none. */
function findDoctype(text: string): { start: number; subset: string; subsetStart: number; end: number } | null {
  const found = scanProlog(text);
  return found.doctype;
}

/** Index of the root element's `<` (or -1), skipping the XML declaration, comments, PIs and the doctype. */
export function findRootElement(text: string): number {
  return scanProlog(text).root;
}

function scanProlog(text: string): { doctype: { start: number; subset: string; subsetStart: number; end: number } | null; root: number } {
  let i = 0;
  let doctype: { start: number; subset: string; subsetStart: number; end: number } | null = null;
  for (;;) {
    while (i < text.length && /\s|\ufeff/.test(text[i]!)) i++;
    if (text.startsWith('<?', i)) {
      const e = text.indexOf('?>', i);
      if (e < 0) return { doctype, root: -1 };
      i = e + 2;
    } else if (text.startsWith('<!--', i)) {
      const e = text.indexOf('-->', i);
      if (e < 0) return { doctype, root: -1 };
      i = e + 3;
    } else if (doctype === null && /^<!DOCTYPE/i.test(text.slice(i, i + 9))) {
      doctype = scanDoctype(text, i);
      i = doctype.end;
    } else {
      return { doctype, root: text[i] === '<' ? i : -1 };
    }
  }
}

/** Scans a doctype from `start`, honouring quotes, to its closing `>`. */
function scanDoctype(text: string, start: number): { start: number; subset: string; subsetStart: number; end: number } {
  let quote: string | null = null;
  let depth = 0;
  let subsetStart = -1;
  let subsetEnd = -1;
  let i = start + 9;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '[') {
      if (depth === 0) subsetStart = i + 1;
      depth++;
    } else if (c === ']') {
      depth--;
      if (depth === 0) subsetEnd = i;
    } else if (c === '>' && depth === 0) {
      break;
    }
  }
  const subset = subsetStart < 0 ? '' : text.slice(subsetStart, subsetEnd < 0 ? i : subsetEnd);
  return { start, subset, subsetStart: Math.max(subsetStart, start), end: Math.min(text.length, i + 1) };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
