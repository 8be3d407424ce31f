// **RdfXmlWriter**: triples as RDF/XML (RDF 1.1 XML Syntax), streamed, one rdf:Description per run of a subject.
// Hand-written: npm has no maintained RDF/XML serialiser (rdfxml-streaming-parser only parses; @graphy's scribe is
// unmaintained since 2021), and the flat form below is small: every triple as a property element.
import type { Quad, Term } from '@rdfjs/types';
import { RdfscoutError } from '../errors.ts';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = `${RDF}langString`;
/** XML 1.0 NameStartChar and NameChar (without ':', as namespaces need NCNames). */
const NC_START = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const LOCAL_NAME = new RegExp(`[${NC_START}][${NC_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*$`);
/** Characters XML 1.0 cannot carry at all, even escaped. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function xmlText(text: string, where: string): string {
  if (NOT_XML.test(text)) throw new RdfscoutError('RDFSCOUT_QUERY_FAILED', `RDF/XML cannot carry the control character in ${where}; ask for Turtle, N-Triples or JSON-LD instead.`);
  return text.replace(/[&<>"\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#13;'));
}

/**
 * Splits a predicate IRI into namespace and local name (the longest XML NCName suffix); RDF/XML can only write
 * predicates whose IRI ends in one. Fails with RDFSCOUT_QUERY_FAILED otherwise (e.g. `http://ex.org/123`).
 */
export function splitPredicate(iri: string): [string, string] {
  const match = LOCAL_NAME.exec(iri);
  if (match === null || match.index === 0) {
    throw new RdfscoutError('RDFSCOUT_QUERY_FAILED', `RDF/XML cannot write the predicate <${iri}> (its IRI does not end in an XML name); ask for Turtle, N-Triples or JSON-LD instead.`);
  }
  return [iri.slice(0, match.index), match[0]];
}

function subjectAttribute(term: Term): string {
  if (term.termType === 'BlankNode') return `rdf:nodeID="${xmlText(nodeId(term.value), 'a blank node')}"`;
  return `rdf:about="${xmlText(term.value, 'an IRI')}"`;
}

/** rdf:nodeID must be an NCName: other labels are prefixed and cleaned, keeping labels distinct by a hex suffix. */
function nodeId(label: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(label) ? label : `b${Buffer.from(label).toString('hex')}`;
}

/** One property element: `<ns:local xmlns:ns="…" …>`. */
function property(q: Quad): string {
  const [ns, local] = splitPredicate(q.predicate.value);
  const open = `<p:${local} xmlns:p="${xmlText(ns, 'a predicate')}"`;
  const o = q.object;
  if (o.termType === 'NamedNode') return `${open} rdf:resource="${xmlText(o.value, 'an IRI')}"/>`;
  if (o.termType === 'BlankNode') return `${open} rdf:nodeID="${xmlText(nodeId(o.value), 'a blank node')}"/>`;
  if (o.termType !== 'Literal') throw new RdfscoutError('RDFSCOUT_QUERY_FAILED', `RDF/XML cannot write a ${o.termType} object.`);
  const value = xmlText(o.value, 'a literal');
  if (o.language) return `${open} xml:lang="${xmlText(o.language, 'a language tag')}">${value}</p:${local}>`;
  if (o.datatype.value !== XSD_STRING && o.datatype.value !== RDF_LANG_STRING) return `${open} rdf:datatype="${xmlText(o.datatype.value, 'a datatype')}">${value}</p:${local}>`;
  return `${open}>${value}</p:${local}>`;
}

/** Writes triples (graphs ignored) as an RDF/XML document, chunk by chunk; consecutive triples of one subject share a description. */
export async function* writeRdfXml(quads: AsyncIterable<Quad>, chunkRows = 256): AsyncIterable<string> {
  let chunk = `<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF xmlns:rdf="${RDF}">\n`;
  let subject: Term | null = null;
  let n = 0;
  for await (const q of quads) {
    if (subject === null || !subject.equals(q.subject)) {
      if (subject !== null) chunk += '  </rdf:Description>\n';
      subject = q.subject;
      chunk += `  <rdf:Description ${subjectAttribute(q.subject)}>\n`;
    }
    chunk += `    ${property(q)}\n`;
    if (++n % chunkRows === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (subject !== null) chunk += '  </rdf:Description>\n';
  yield `${chunk}</rdf:RDF>\n`;
}
