// Seeded crawl data for the differential SPARQL tests: documents in several graphs, shared triples, blank nodes, tricky terms.
import type { Quad, Term } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { Prng } from '../../../src/random/prng.ts';

export const EX = 'http://ex.org/';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/** IRIs a crawl meets: escapes, non-ASCII, queries, fragments, parentheses, an apostrophe, a URN. */
const SUBJECT_IRIS = [
  `${EX}alice`, `${EX}bob`, `${EX}carol`, `${EX}a%20b`, `${EX}caf\u00e9`, `${EX}q?x=1&y=2`, `${EX}page#frag`,
  `${EX}paren(1)`, `${EX}it's`, 'urn:isbn:0451450523', `${EX}~tilde/`, `${EX}\u65e5\u672c`,
];
const PREDICATES = [`${EX}p0`, `${EX}p1`, `${EX}knows`, `${EX}name`, RDF_TYPE, `${EX}age`];
const CLASSES = [`${EX}Person`, `${EX}Doc`, `${EX}Thing`];

/** One generated document: its URL (graph) and its quads in that graph. */
interface GeneratedDocument {
  url: string;
  quads: Quad[];
}

/** The data of one case. */
export interface GeneratedData {
  documents: GeneratedDocument[];
}

/** A literal of one of the kinds a crawl stores. */
function literal(prng: Prng, df: DataFactory): Term {
  const n = prng.nextInt(10);
  switch (prng.nextInt(9)) {
    case 0:
      return df.literal(`name ${n}`);
    case 1:
      return df.literal(`nom ${n}`, 'fr');
    case 2:
      return df.literal(`name ${n}`, 'en');
    case 3:
      return df.literal(`name ${n}`, 'en-GB');
    case 4:
      return df.literal(String(n), df.namedNode(`${XSD}integer`));
    case 5:
      return df.literal(`${n}.5`, df.namedNode(`${XSD}decimal`));
    case 6:
      return df.literal(n % 2 === 0 ? 'true' : 'false', df.namedNode(`${XSD}boolean`));
    case 7:
      return df.literal(`line\n"quoted" \\ tab\t${n}`);
    default:
      return df.literal(`2024-0${1 + (n % 9)}-01`, df.namedNode(`${XSD}date`));
  }
}

/**
 * `docs` documents of up to `perDoc` quads. Some triples are stated by several documents (the default graph is
 * their merge, a set); blank nodes are the document's own (labels `d<doc>b<i>`, as a parser would make them unique).
 */
export function generateData(seed: number, docs = 5, perDoc = 12): GeneratedData {
  const prng = new Prng(seed);
  const df = new DataFactory();
  const shared: Array<[Term, Term, Term]> = [];
  const documents: GeneratedDocument[] = [];
  for (let d = 0; d < docs; d++) {
    const url = d === 3 ? `${EX}docs/%C3%A9t%C3%A9?page=${d}` : `${EX}doc${d}`;
    const graph = df.namedNode(url);
    const quads: Quad[] = [];
    const keys = new Set<string>();
    const blank = (): Term => df.blankNode(`d${d}b${prng.nextInt(3)}`);
    const subject = (): Term => (prng.chance(0.2) ? blank() : df.namedNode(prng.pick(SUBJECT_IRIS)));
    const count = prng.int(2, perDoc);
    for (let i = 0; i < count; i++) {
      let triple: [Term, Term, Term];
      if (shared.length > 0 && prng.chance(0.25)) triple = prng.pick(shared);
      else {
        const p = prng.pick(PREDICATES);
        const o = p === RDF_TYPE ? df.namedNode(prng.pick(CLASSES)) : p === `${EX}knows` ? (prng.chance(0.3) ? blank() : df.namedNode(prng.pick(SUBJECT_IRIS))) : prng.chance(0.7) ? literal(prng, df) : df.namedNode(prng.pick(SUBJECT_IRIS));
        triple = [subject(), df.namedNode(p), o];
        if (triple[0].termType !== 'BlankNode' && triple[2].termType !== 'BlankNode' && prng.chance(0.3)) shared.push(triple);
      }
      const q = df.quad(triple[0] as Quad['subject'], triple[1] as Quad['predicate'], triple[2] as Quad['object'], graph);
      const key = `${termKey(q.subject)} ${termKey(q.predicate)} ${termKey(q.object)}`;
      if (keys.has(key)) continue; // a document is a set of triples
      keys.add(key);
      quads.push(q);
    }
    documents.push({ url, quads });
  }
  return { documents };
}

/** A term as N-Triples-like text (for keys and messages). */
export function termKey(t: Term): string {
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  if (t.termType === 'Literal') return `${JSON.stringify(t.value)}${t.language ? `@${t.language}` : `^^<${t.datatype.value}>`}`;
  if (t.termType === 'DefaultGraph') return '';
  return `?${t.value}`;
}

