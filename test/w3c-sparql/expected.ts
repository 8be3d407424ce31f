// Reads a W3C test's expected result (.srx, .srj, .tsv, .csv, or an RDF graph / rs:ResultSet in Turtle or RDF/XML).
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Quad, Term } from '@rdfjs/types';
import { Parser } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { SparqlJsonParser } from 'sparqljson-parse';
import { SparqlXmlParser } from 'sparqlxml-parse';
import { localPath } from './manifest.ts';

/** One solution: variable name → term (unbound variables absent). */
export type Row = Record<string, Term>;

/** A result to compare: solutions, a boolean, a graph, or CSV cells (CSV drops term types: compared as text). */
export type Answer =
  | { kind: 'rows'; rows: Row[] }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'graph'; quads: Quad[] }
  | { kind: 'csv'; header: string[]; rows: string[][] };

const RS = 'http://www.w3.org/2001/sw/DataAccess/tests/result-set#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** The RDF of a file of the suite (Turtle, N-Triples or RDF/XML), relative IRIs resolved against the file's IRI. */
export async function readRdf(iri: string): Promise<Quad[]> {
  const text = await readFile(localPath(iri), 'utf8');
  if (iri.endsWith('.rdf')) {
    const quads: Quad[] = [];
    const parser = new RdfXmlParser({ baseIRI: iri });
    await new Promise<void>((resolve, reject) => {
      parser.on('data', (q: Quad) => quads.push(q));
      parser.on('error', reject);
      parser.on('end', () => resolve());
      Readable.from([text]).pipe(parser);
    });
    return quads;
  }
  return new Parser({ baseIRI: iri, format: iri.endsWith('.nt') ? 'N-Triples' : 'Turtle' }).parse(text);
}

/** The expected answer of a test, from its mf:result file. */
export async function readExpected(iri: string): Promise<Answer> {
  const path = localPath(iri);
  if (iri.endsWith('.srx')) {
    const parser = new SparqlXmlParser();
    const text = await readFile(path, 'utf8');
    if (/<boolean>/.test(text)) return { kind: 'boolean', value: await parser.parseXmlBooleanStream(Readable.from([text])) };
    const rows: Row[] = [];
    await new Promise<void>((resolve, reject) => {
      parser.parseXmlResultsStream(Readable.from([text])).on('data', (r: Row) => rows.push(r)).on('error', reject).on('end', () => resolve());
    });
    return { kind: 'rows', rows };
  }
  if (iri.endsWith('.srj')) return parseJsonResults(await readFile(path, 'utf8'));
  if (iri.endsWith('.tsv')) return parseTsv(await readFile(path, 'utf8'));
  if (iri.endsWith('.csv')) return parseCsv(await readFile(path, 'utf8'));
  const quads = await readRdf(iri);
  const resultSet = quads.find((q) => q.predicate.value === RDF_TYPE && q.object.value === `${RS}ResultSet`)?.subject;
  return resultSet === undefined ? { kind: 'graph', quads } : resultSetRows(quads, resultSet);
}

/** SPARQL 1.1 Query Results JSON. */
export function parseJsonResults(text: string): Answer {
  const json = JSON.parse(text) as { boolean?: boolean };
  const parser = new SparqlJsonParser();
  if (typeof json.boolean === 'boolean') return { kind: 'boolean', value: json.boolean };
  return { kind: 'rows', rows: parser.parseJsonResults(json) as Row[] };
}

/** SPARQL 1.1 Query Results TSV: a header of variables, then terms in Turtle/N-Triples syntax (empty: unbound). */
export function parseTsv(text: string): Answer {
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split('\t').map((v) => v.replace(/^[?$]/, ''));
  const rows = lines.slice(1).map((line) => {
    const row: Row = {};
    line.split('\t').forEach((cell, i) => {
      if (cell === '') return;
      const q = new Parser({ format: 'Turtle' }).parse(`<x:s> <x:p> ${cell} .`)[0] as Quad;
      row[header[i] as string] = q.object;
    });
    return row;
  });
  if (text.trim() === '') return { kind: 'rows', rows: [] };
  return { kind: 'rows', rows };
}

/** SPARQL 1.1 Query Results CSV (RFC 4180 fields). */
export function parseCsv(text: string): Answer {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  const [header = [], ...rows] = records;
  return { kind: 'csv', header, rows };
}

/** The solutions of an rs:ResultSet (the DAWG result vocabulary), ordered by rs:index when given. */
function resultSetRows(quads: Quad[], set: Term): Answer {
  const objects = (s: Term, p: string): Term[] => quads.filter((q) => q.subject.equals(s) && q.predicate.value === `${RS}${p}`).map((q) => q.object);
  const bool = objects(set, 'boolean')[0];
  if (bool !== undefined) return { kind: 'boolean', value: bool.value === 'true' };
  const solutions = objects(set, 'solution').map((solution) => {
    const row: Row = {};
    for (const binding of objects(solution, 'binding')) {
      const name = objects(binding, 'variable')[0];
      const value = objects(binding, 'value')[0];
      if (name !== undefined && value !== undefined) row[name.value] = value;
    }
    return { row, index: Number(objects(solution, 'index')[0]?.value ?? 0) };
  });
  solutions.sort((a, b) => a.index - b.index);
  return { kind: 'rows', rows: solutions.map((s) => s.row) };
}
