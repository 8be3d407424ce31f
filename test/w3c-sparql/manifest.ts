// Reads the vendored W3C SPARQL 1.1 manifests (test/fixtures/w3c-sparql11/*/manifest.ttl) into query-evaluation tests.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Quad, Term } from '@rdfjs/types';
import { Parser } from 'n3';

/** Where the vendored suite lives, and the IRI the W3C publishes it under (relative IRIs in it resolve there). */
const FIXTURES = join(import.meta.dirname, '../fixtures/w3c-sparql11');
const W3C_BASE = 'http://www.w3.org/2009/sparql/docs/tests/data-sparql11/';

/** The categories run, each a folder of the suite (sparql/sparql11/ in github.com/w3c/rdf-tests). */
export const CATEGORIES = [
  'aggregates', 'bind', 'bindings', 'cast', 'construct', 'exists', 'functions', 'grouping', 'negation',
  'project-expression', 'property-path', 'subquery', 'csv-tsv-res', 'json-res',
] as const;

const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const QT = 'http://www.w3.org/2001/sw/DataAccess/tests/test-query#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';

/** One mf:QueryEvaluationTest; files are IRIs under {@link W3C_BASE} (see {@link localPath}). */
export interface W3cTest {
  /** `category/name`, e.g. `aggregates/agg01`: stable, used in the baseline. */
  id: string;
  category: string;
  /** mf:name */
  title: string;
  query: string;
  /** qt:data: the default graph's files. */
  data: string[];
  /** qt:graphData: the named graphs' files (each named by its IRI). */
  graphData: string[];
  /** mf:result */
  result: string;
}

/** The file under {@link FIXTURES} of a suite IRI. */
export function localPath(iri: string): string {
  if (!iri.startsWith(W3C_BASE)) throw new Error(`not a file of the suite: ${iri}`);
  return join(FIXTURES, iri.slice(W3C_BASE.length));
}

/** The query-evaluation tests of every category, in manifest order. */
export async function readSuite(): Promise<W3cTest[]> {
  const tests: W3cTest[] = [];
  for (const category of CATEGORIES) tests.push(...(await readManifest(category)));
  return tests;
}

async function readManifest(category: string): Promise<W3cTest[]> {
  const base = `${W3C_BASE}${category}/manifest.ttl`;
  const quads = new Parser({ baseIRI: base }).parse(await readFile(localPath(base), 'utf8'));
  const objects = (s: Term, p: string): Term[] => quads.filter((q: Quad) => q.subject.equals(s) && q.predicate.value === p).map((q) => q.object);
  const one = (s: Term, p: string): Term | undefined => objects(s, p)[0];
  const manifest = quads.find((q) => q.predicate.value === `${RDF}type` && q.object.value === `${MF}Manifest`)?.subject;
  if (manifest === undefined) throw new Error(`${base}: no mf:Manifest`);
  const entries: Term[] = [];
  for (let node = one(manifest, `${MF}entries`); node !== undefined && node.value !== `${RDF}nil`; node = one(node, `${RDF}rest`)) {
    const first = one(node, `${RDF}first`);
    if (first !== undefined) entries.push(first);
  }
  const tests: W3cTest[] = [];
  for (const entry of entries) {
    if (!objects(entry, `${RDF}type`).some((t) => t.value === `${MF}QueryEvaluationTest`)) continue;
    const action = one(entry, `${MF}action`);
    const query = action && one(action, `${QT}query`);
    const result = one(entry, `${MF}result`);
    if (action === undefined || query === undefined || result === undefined) throw new Error(`${entry.value}: no action, query or result`);
    tests.push({
      id: `${category}/${entry.value.replace(/^.*#/, '')}`,
      category,
      title: one(entry, `${MF}name`)?.value ?? '',
      query: query.value,
      data: objects(action, `${QT}data`).map((t) => t.value),
      graphData: objects(action, `${QT}graphData`).map((t) => t.value),
      result: result.value,
    });
  }
  return tests;
}
