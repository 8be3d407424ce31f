// Seeded SPARQL queries over generated data: 1–4 patterns with GRAPH, FROM, OPTIONAL, UNION, MINUS, FILTER, BIND, aggregates, …
import type { Term } from '@rdfjs/types';
import { Prng } from '../../../src/random/prng.ts';
import { EX, type GeneratedData, termKey, XSD } from './generate-data.ts';

/** A generated query and what the comparison needs to know of it. */
export interface GeneratedQuery {
  sparql: string;
  form: 'select' | 'ask' | 'construct' | 'describe';
  /** SELECT with ORDER BY over every projected variable: compare as sequences (ties only between equal rows). */
  ordered: boolean;
}

const VARS = ['a', 'b', 'c', 'd'];

/** Writes a term of the data in SPARQL syntax (blank nodes cannot be named in a query: a variable instead). */
function sparqlTerm(t: Term, fallback: string): string {
  if (t.termType === 'BlankNode') return `?${fallback}`;
  if (t.termType === 'NamedNode') return `<${t.value.replace(/[\\>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}>`;
  return termKey(t).replace(/\\n/g, '\\n');
}

class QueryBuilder {
  readonly #prng: Prng;
  readonly #data: GeneratedData;
  readonly used = new Set<string>();

  constructor(prng: Prng, data: GeneratedData) {
    this.#prng = prng;
    this.#data = data;
  }

  get prng(): Prng {
    return this.#prng;
  }

  graphIri(): string {
    return `<${this.#prng.pick(this.#data.documents).url}>`;
  }

  #variable(): string {
    const prng = this.#prng;
    const v = this.used.size > 0 && prng.chance(0.6) ? prng.pick([...this.used]) : prng.pick(VARS);
    this.used.add(v);
    return `?${v}`;
  }

  /** A triple pattern taken from a stored quad with one to three of its terms made variables. */
  pattern(): string {
    const prng = this.#prng;
    const doc = prng.pick(this.#data.documents);
    const q = prng.pick(doc.quads);
    const terms = [q.subject, q.predicate, q.object];
    const out = terms.map((t, i) => {
      if (t.termType === 'BlankNode' || prng.chance(i === 1 ? 0.35 : 0.55)) return i === 1 ? (prng.chance(0.5) ? '?p' : this.#variable()) : this.#variable();
      return sparqlTerm(t, 'x');
    });
    if (out[1] === '?p') this.used.add('p');
    return `${out.join(' ')} .`;
  }

  bgp(max: number): string {
    const n = this.#prng.int(1, max);
    return Array.from({ length: n }, () => this.pattern()).join(' ');
  }

  filter(): string {
    const prng = this.#prng;
    const v = `?${prng.pick([...this.used])}`;
    return `FILTER(${prng.pick([
      `isLiteral(${v})`,
      `isIRI(${v})`,
      `isBlank(${v})`,
      `lang(${v}) = "en"`,
      `langMatches(lang(${v}), "en")`,
      `datatype(${v}) = <${XSD}integer>`,
      `${v} != <${EX}alice>`,
      `regex(str(${v}), "a", "i")`,
      `bound(${v})`,
      `!bound(${v})`,
      `${v} > 3`,
      `str(${v}) < "m"`,
      `contains(str(${v}), "e")`,
    ])})`;
  }
}

/** One query of the case `seed` over `data`. */
export function generateQuery(seed: number, data: GeneratedData): GeneratedQuery {
  const prng = new Prng(seed);
  const b = new QueryBuilder(prng, data);
  // The body: a BGP, maybe inside GRAPH, then optional operators.
  let where: string;
  const graphMode = prng.nextInt(5); // 0: default graph, 1: GRAPH ?g, 2: GRAPH <g>, 3: FROM, 4: FROM NAMED + GRAPH ?g
  const inner = b.bgp(graphMode === 0 ? 4 : 3);
  let dataset = '';
  if (graphMode === 1 || graphMode === 4) {
    where = `GRAPH ?g { ${inner} }`;
    b.used.add('g');
  } else if (graphMode === 2) where = `GRAPH ${b.graphIri()} { ${inner} }`;
  else where = inner;
  if (graphMode === 3) dataset = Array.from({ length: prng.int(1, 2) }, () => `FROM ${b.graphIri()}`).join(' ');
  if (graphMode === 4) dataset = Array.from({ length: prng.int(1, 2) }, () => `FROM NAMED ${b.graphIri()}`).join(' ');
  const extra = prng.nextInt(7);
  if (extra === 1) where += ` OPTIONAL { ${b.pattern()} }`;
  else if (extra === 2) where = `{ ${where} } UNION { ${b.bgp(2)} }`;
  else if (extra === 3) where += ` MINUS { ${b.pattern()} }`;
  else if (extra === 4) where += ` ${b.filter()}`;
  else if (extra === 5) {
    const v = prng.pick([...b.used]);
    where += ` BIND(STR(?${v}) AS ?str)`;
    b.used.add('str');
  } else if (extra === 6) where += ` OPTIONAL { ${b.pattern()} } ${b.filter()}`;
  const vars = [...b.used].map((v) => `?${v}`);
  const form = prng.nextInt(10);
  if (form === 0) return { sparql: `ASK ${dataset} { ${where} }`, form: 'ask', ordered: false };
  if (form === 1) {
    const s = prng.pick(vars);
    const o = prng.pick(vars);
    const template = prng.chance(0.3) ? `${s} <${EX}rel> _:n . _:n <${EX}to> ${o} .` : `${s} <${EX}rel> ${o} .`;
    return { sparql: `CONSTRUCT { ${template} } ${dataset} WHERE { ${where} }`, form: 'construct', ordered: false };
  }
  if (form === 2) {
    return prng.chance(0.5)
      ? { sparql: `DESCRIBE ${prng.pick(vars)} ${dataset} WHERE { ${where} }`, form: 'describe', ordered: false }
      : { sparql: `DESCRIBE <${EX}alice>`, form: 'describe', ordered: false };
  }
  if (form === 3) {
    // Aggregates (deterministic ones only: no SAMPLE, no GROUP_CONCAT, whose answers depend on the order)
    const key = prng.pick(vars);
    const other = prng.pick(vars);
    const agg = prng.pick([`(COUNT(*) AS ?n)`, `(COUNT(DISTINCT ${other}) AS ?n)`, `(MIN(STR(${other})) AS ?n)`, `(MAX(STR(${other})) AS ?n)`, `(COUNT(${other}) AS ?n)`]);
    return prng.chance(0.4)
      ? { sparql: `SELECT ${agg} ${dataset} WHERE { ${where} }`, form: 'select', ordered: false }
      : { sparql: `SELECT ${key} ${agg} ${dataset} WHERE { ${where} } GROUP BY ${key}`, form: 'select', ordered: false };
  }
  const projected = prng.chance(0.3) ? vars : vars.filter((_, i) => i === 0 || prng.chance(0.6));
  const distinct = prng.chance(0.3) ? 'DISTINCT ' : '';
  const select = prng.chance(0.2) && distinct === '' ? '*' : projected.join(' ');
  const shown = select === '*' ? vars : projected;
  if (prng.chance(0.3)) {
    const limit = prng.chance(0.7) ? ` LIMIT ${prng.int(1, 6)}` : '';
    const offset = prng.chance(0.4) ? ` OFFSET ${prng.int(1, 4)}` : '';
    const order = shown.map((v) => (prng.chance(0.3) ? `DESC(${v})` : v)).join(' ');
    return { sparql: `SELECT ${distinct}${select} ${dataset} WHERE { ${where} } ORDER BY ${order}${limit}${offset}`, form: 'select', ordered: true };
  }
  return { sparql: `SELECT ${distinct}${select} ${dataset} WHERE { ${where} }`, form: 'select', ordered: false };
}
