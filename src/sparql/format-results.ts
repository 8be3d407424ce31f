// **formatResult** serialises a query result as SPARQL 1.1 Results JSON/XML/CSV/TSV, a text table, or N-Quads/N-Triples/Turtle.
import type { Quad, Term } from '@rdfjs/types';
import { RdfscoutError } from '../errors.ts';
import { writeGraph } from './format-graph.ts';
import type { BindingRow, QueryResult } from './query-engine.ts';

/** Output formats. The first five serialise solutions (and ASK booleans), the others graphs (and `table` both). */
export type ResultFormat = 'json' | 'xml' | 'csv' | 'tsv' | 'table' | 'nquads' | 'ntriples' | 'turtle' | 'rdfxml' | 'jsonld';

/** Media type of each format (the SPARQL 1.1 Protocol / RDF 1.1 registrations). */
export const MEDIA_TYPES: Readonly<Record<ResultFormat, string>> = Object.freeze({
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  table: 'text/plain',
  nquads: 'application/n-quads',
  ntriples: 'application/n-triples',
  turtle: 'text/turtle',
  rdfxml: 'application/rdf+xml',
  jsonld: 'application/ld+json',
});

/** Formats that can carry each kind of result, preferred first. */
export const FORMATS_BY_KIND: Readonly<Record<QueryResult['kind'], readonly ResultFormat[]>> = Object.freeze({
  bindings: ['json', 'xml', 'csv', 'tsv', 'table'],
  boolean: ['json', 'xml', 'csv', 'tsv', 'table'],
  quads: ['nquads', 'turtle', 'ntriples', 'rdfxml', 'jsonld', 'table'],
});

/** Options of {@link formatResult}. */
export interface FormatOptions {
  /** Prefixes for Turtle output. Default: none. */
  prefixes?: Readonly<Record<string, string>>;
}

/** What {@link formatResult}'s graph formats need (format-graph.ts). */
export type GraphFormat = 'nquads' | 'ntriples' | 'turtle' | 'rdfxml' | 'jsonld';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
/** Rows grouped into one chunk when streaming. */
const CHUNK_ROWS = 256;

/**
 * Serialises `result` as `format`, as a stream of string chunks (one per few hundred rows; the `table` format
 * buffers, as column widths need every row). Fails with RDFSCOUT_INVALID_ARGUMENT when the format cannot carry
 * the result (e.g. CSV for a CONSTRUCT).
 */
export function formatResult(result: QueryResult, format: ResultFormat, opts: FormatOptions = {}): AsyncIterable<string> {
  if (!FORMATS_BY_KIND[result.kind].includes(format)) {
    throw new RdfscoutError('RDFSCOUT_INVALID_ARGUMENT', `Format "${format}" cannot carry a ${result.kind} result; use one of: ${FORMATS_BY_KIND[result.kind].join(', ')}.`);
  }
  if (result.kind === 'boolean') return once(formatBoolean(result.value, format));
  if (result.kind === 'quads') return format === 'table' ? tableQuads(result.quads) : writeGraph(result.quads, format as GraphFormat, opts.prefixes ?? {});
  const { variables, rows } = result;
  switch (format) {
    case 'json':
      return jsonRows(variables, rows);
    case 'xml':
      return xmlRows(variables, rows);
    case 'csv':
      return lines(`${variables.map(csvField).join(',')}\r\n`, rows, (row) => `${variables.map((v) => csvField(csvValue(row[v]))).join(',')}\r\n`);
    case 'tsv':
      return lines(`${variables.map((v) => `?${v}`).join('\t')}\n`, rows, (row) => `${variables.map((v) => (row[v] ? termToNt(row[v]) : '')).join('\t')}\n`);
    default:
      return tableRows(variables, rows);
  }
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

function formatBoolean(value: boolean, format: ResultFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify({ head: {}, boolean: value })}\n`;
    case 'xml':
      return `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head></head>\n<boolean>${value}</boolean>\n</sparql>\n`;
    // CSV/TSV do not define ASK results (SPARQL 1.1 CSV/TSV §1); this is what Jena and others write.
    case 'csv':
      return `_askResult\r\n${value}\r\n`;
    case 'tsv':
      return `?_askResult\n${value}\n`;
    default:
      return `${value}\n`;
  }
}

async function* lines(head: string, rows: AsyncIterable<BindingRow>, line: (row: BindingRow) => string): AsyncIterable<string> {
  let chunk = head;
  let n = 0;
  for await (const row of rows) {
    chunk += line(row);
    if (++n % CHUNK_ROWS === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

// ---- SPARQL 1.1 Query Results JSON (W3C REC 2013, §3) ----

/** One RDF term as a SPARQL JSON results object. */
function termToJson(term: Term): Record<string, string> {
  switch (term.termType) {
    case 'NamedNode':
      return { type: 'uri', value: term.value };
    case 'BlankNode':
      return { type: 'bnode', value: term.value };
    case 'Literal': {
      const out: Record<string, string> = { type: 'literal', value: term.value };
      if (term.language) out['xml:lang'] = term.language;
      else if (term.datatype.value !== XSD_STRING && term.datatype.value !== RDF_LANG_STRING) out.datatype = term.datatype.value;
      return out;
    }
    default:
      return { type: 'literal', value: term.value };
  }
}

async function* jsonRows(variables: readonly string[], rows: AsyncIterable<BindingRow>): AsyncIterable<string> {
  let chunk = `{"head":{"vars":${JSON.stringify(variables)}},"results":{"bindings":[`;
  let n = 0;
  for await (const row of rows) {
    const obj: Record<string, Record<string, string>> = {};
    for (const v of variables) {
      const term = row[v];
      if (term) obj[v] = termToJson(term);
    }
    chunk += `${n === 0 ? '\n' : ',\n'}${JSON.stringify(obj)}`;
    if (++n % CHUNK_ROWS === 0) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}\n]}}\n`;
}

// ---- SPARQL Query Results XML Format (W3C REC 2013) ----

function xmlEscape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function termToXml(term: Term): string {
  if (term.termType === 'NamedNode') return `<uri>${xmlEscape(term.value)}</uri>`;
  if (term.termType === 'BlankNode') return `<bnode>${xmlEscape(term.value)}</bnode>`;
  if (term.termType === 'Literal') {
    if (term.language) return `<literal xml:lang="${xmlEscape(term.language)}">${xmlEscape(term.value)}</literal>`;
    if (term.datatype.value !== XSD_STRING) return `<literal datatype="${xmlEscape(term.datatype.value)}">${xmlEscape(term.value)}</literal>`;
    return `<literal>${xmlEscape(term.value)}</literal>`;
  }
  return `<literal>${xmlEscape(term.value)}</literal>`;
}

function xmlRows(variables: readonly string[], rows: AsyncIterable<BindingRow>): AsyncIterable<string> {
  const head = `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>${variables.map((v) => `<variable name="${xmlEscape(v)}"/>`).join('')}</head>\n<results>\n`;
  const body = lines(head, rows, (row) => {
    let out = '<result>';
    for (const v of variables) {
      const term = row[v];
      if (term) out += `<binding name="${xmlEscape(v)}">${termToXml(term)}</binding>`;
    }
    return `${out}</result>\n`;
  });
  return (async function* () {
    yield* body;
    yield '</results>\n</sparql>\n';
  })();
}

// ---- SPARQL 1.1 Query Results CSV and TSV (W3C REC 2013) ----

/** CSV §2: IRIs and literals as plain strings (no datatype or language), blank nodes as `_:label`. */
function csvValue(term: Term | undefined): string {
  if (!term) return '';
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
}

/** RFC 4180 quoting: a field with `"`, `,`, CR or LF is wrapped in quotes, inner quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** TSV §3 / N-Triples: an RDF term in Turtle/N-Triples syntax, escaped to stay on one line. */
export function termToNt(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value.replace(/[\x00-\x20<>"{}|^`\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)}>`;
    case 'BlankNode':
      return `_:${term.value}`;
    case 'Literal': {
      const lexical = `"${escapeString(term.value)}"`;
      if (term.language) return `${lexical}@${term.language}`;
      if (term.datatype.value === XSD_STRING) return lexical;
      return `${lexical}^^<${term.datatype.value}>`;
    }
    case 'Variable':
      return `?${term.value}`;
    default:
      return `"${escapeString(term.value)}"`;
  }
}

function escapeString(s: string): string {
  return s.replace(/["\\\n\r\t\b\f]/g, (c) => {
    switch (c) {
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\b':
        return '\\b';
      default:
        return '\\f';
    }
  });
}

// ---- text table for humans ----

const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';
const BARE_TYPES = new Set(['integer', 'decimal', 'double', 'float', 'boolean', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'positiveInteger', 'unsignedInt', 'unsignedLong'].map((t) => XSD_NS + t));
/** Widest cell of the human table; longer values are cut with an ellipsis (use json/csv/tsv for exact values). */
const MAX_CELL = 100;

/**
 * A term as people read it in the `table` format: numbers and booleans bare, strings quoted, `xsd:` datatypes
 * shortened, IRIs in angle brackets. Not a serialisation: the json/csv/tsv formats are for machines.
 */
function termToHuman(term: Term): string {
  let text: string;
  if (term.termType === 'Literal') {
    const dt = term.datatype.value;
    const escaped = term.value.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
    if (BARE_TYPES.has(dt)) text = term.value;
    else if (term.language) text = `"${escaped}"@${term.language}`;
    else if (dt === XSD_STRING) text = `"${escaped}"`;
    else text = `"${escaped}"^^${dt.startsWith(XSD_NS) ? `xsd:${dt.slice(XSD_NS.length)}` : `<${dt}>`}`;
  } else {
    text = termToNt(term);
  }
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

async function* tableRows(variables: readonly string[], rows: AsyncIterable<BindingRow>): AsyncIterable<string> {
  const cells: string[][] = [];
  for await (const row of rows) cells.push(variables.map((v) => (row[v] ? termToHuman(row[v]) : '')));
  yield renderTable(variables.map((v) => `?${v}`), cells);
}

async function* tableQuads(quads: AsyncIterable<Quad>): AsyncIterable<string> {
  const cells: string[][] = [];
  for await (const q of quads) cells.push([termToHuman(q.subject), termToHuman(q.predicate), termToHuman(q.object), q.graph.termType === 'DefaultGraph' ? '' : termToHuman(q.graph)]);
  yield renderTable(['subject', 'predicate', 'object', 'graph'], cells);
}

/** Columns padded to their widest cell, a rule under the header, and a row count. */
function renderTable(header: readonly string[], cells: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('-+-')];
  for (const r of cells) out.push(line(r));
  out.push(`(${cells.length} ${cells.length === 1 ? 'row' : 'rows'})`);
  return `${out.join('\n')}\n`;
}
