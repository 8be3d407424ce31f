import type { Quad, Term } from '@rdfjs/types';
import { Parser } from 'n3';
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { RdfscoutError } from '../../src/errors.ts';
import { formatResult, type ResultFormat } from '../../src/sparql/format-results.ts';
import type { BindingRow, QueryResult } from '../../src/sparql/query-engine.ts';

const df = new DataFactory();
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const TRICKY = 'comma, "quote"\nnew line';

async function* from<T>(items: T[]): AsyncIterable<T> {
  for (const i of items) yield i;
}
function bindings(variables: string[], rows: BindingRow[]): QueryResult {
  return { kind: 'bindings', variables, rows: from(rows), truncated: false, delivered: 0, close: () => {} };
}
async function text(result: QueryResult, format: ResultFormat, prefixes?: Record<string, string>): Promise<string> {
  let out = '';
  for await (const chunk of formatResult(result, format, prefixes ? { prefixes } : {})) out += chunk;
  return out;
}

const rows = (): BindingRow[] => [
  { s: df.namedNode('http://ex.org/a'), o: df.literal(TRICKY, 'en') },
  { s: df.namedNode('http://ex.org/a'), o: df.literal('42', df.namedNode(`${XSD}integer`)) },
  { s: df.blankNode('b0'), o: df.literal('tab\there \\ back') },
  { o: df.literal('plain') } as Record<string, Term>,
];

describe('SPARQL 1.1 Query Results JSON', () => {
  it('writes head.vars and typed terms (uri, bnode, literal with xml:lang or datatype; unbound omitted)', async () => {
    const json = JSON.parse(await text(bindings(['s', 'o'], rows()), 'json'));
    expect(json.head).toEqual({ vars: ['s', 'o'] });
    expect(json.results.bindings).toEqual([
      { s: { type: 'uri', value: 'http://ex.org/a' }, o: { type: 'literal', value: TRICKY, 'xml:lang': 'en' } },
      { s: { type: 'uri', value: 'http://ex.org/a' }, o: { type: 'literal', value: '42', datatype: `${XSD}integer` } },
      { s: { type: 'bnode', value: 'b0' }, o: { type: 'literal', value: 'tab\there \\ back' } },
      { o: { type: 'literal', value: 'plain' } },
    ]);
  });

  it('writes ASK as {head, boolean}', async () => {
    expect(JSON.parse(await text({ kind: 'boolean', value: true }, 'json'))).toEqual({ head: {}, boolean: true });
  });

  it('writes empty results as valid JSON', async () => {
    expect(JSON.parse(await text(bindings(['x'], []), 'json'))).toEqual({ head: { vars: ['x'] }, results: { bindings: [] } });
  });

  it('streams in chunks for large results', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ x: df.literal(String(i)) }));
    const chunks: string[] = [];
    for await (const c of formatResult(bindings(['x'], many), 'json')) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(2);
    expect(JSON.parse(chunks.join('')).results.bindings).toHaveLength(1000);
  });
});

describe('SPARQL 1.1 Query Results CSV', () => {
  it('writes plain values with RFC 4180 quoting and CRLF line ends', async () => {
    const csv = await text(bindings(['s', 'o'], rows()), 'csv');
    expect(csv).toBe(
      's,o\r\n' +
        'http://ex.org/a,"comma, ""quote""\nnew line"\r\n' +
        'http://ex.org/a,42\r\n' +
        '_:b0,tab\there \\ back\r\n' +
        ',plain\r\n',
    );
  });
});

describe('SPARQL 1.1 Query Results TSV', () => {
  it('writes ?vars and N-Triples-style terms, escaped to one line', async () => {
    const tsv = await text(bindings(['s', 'o'], rows()), 'tsv');
    expect(tsv.split('\n')).toEqual([
      '?s\t?o',
      '<http://ex.org/a>\t"comma, \\"quote\\"\\nnew line"@en',
      `<http://ex.org/a>\t"42"^^<${XSD}integer>`,
      '_:b0\t"tab\\there \\\\ back"',
      '\t"plain"',
      '',
    ]);
  });
});

describe('SPARQL Query Results XML', () => {
  it('writes variables, typed literals and escapes markup', async () => {
    const r = bindings(['s', 'o'], [{ s: df.namedNode('http://ex.org/a?x=1&y=2'), o: df.literal('<b> & "c"', 'fr') }]);
    const xml = await text(r, 'xml');
    expect(xml).toContain('<head><variable name="s"/><variable name="o"/></head>');
    expect(xml).toContain('<binding name="s"><uri>http://ex.org/a?x=1&amp;y=2</uri></binding>');
    expect(xml).toContain('<binding name="o"><literal xml:lang="fr">&lt;b&gt; &amp; &quot;c&quot;</literal></binding>');
    expect(await text({ kind: 'boolean', value: false }, 'xml')).toContain('<boolean>false</boolean>');
  });
});

describe('table', () => {
  it('aligns columns and counts rows', async () => {
    const out = (await text(bindings(['s', 'o'], rows()), 'table')).trimEnd().split('\n');
    expect(out[0]).toMatch(/^\?s\s+\| \?o$/);
    const bar = out[0]?.indexOf('|');
    for (const line of out.slice(2, -1)) expect(line.indexOf('|')).toBe(bar);
    expect(out.at(-1)).toBe('(4 rows)');
  });

  it('shows numbers bare, strings quoted, xsd datatypes short, and cuts very long values', async () => {
    const row = {
      n: df.literal('360', df.namedNode(`${XSD}integer`)),
      s: df.literal('Alice'),
      l: df.literal('Alice', 'en'),
      d: df.literal('2026-11-22', df.namedNode(`${XSD}date`)),
      i: df.namedNode('http://ex.org/a'),
      long: df.literal('x'.repeat(500)),
    };
    const out = await text({ kind: 'bindings', variables: Object.keys(row), rows: from([row]), truncated: false, delivered: 0, close: () => {} }, 'table');
    const cells = out.split('\n')[2]!.split(' | ').map((c) => c.trim());
    expect(cells.slice(0, 5)).toEqual(['360', '"Alice"', '"Alice"@en', '"2026-11-22"^^xsd:date', '<http://ex.org/a>']);
    expect(cells[5]).toHaveLength(100);
    expect(cells[5]!.endsWith('…')).toBe(true);
  });
});

describe('graphs', () => {
  const qs: Quad[] = [
    df.quad(df.namedNode('http://ex.org/a'), df.namedNode('http://ex.org/p'), df.literal(TRICKY, 'en'), df.namedNode('http://ex.org/g')),
    df.quad(df.namedNode('http://ex.org/a'), df.namedNode('http://ex.org/q'), df.literal('1', df.namedNode(`${XSD}integer`))),
  ];
  const quads = (): QueryResult => ({ kind: 'quads', quads: from(qs), truncated: false, delivered: 0, close: () => {} });

  it('writes N-Quads that parse back to the same quads', async () => {
    const back = new Parser({ format: 'N-Quads' }).parse(await text(quads(), 'nquads'));
    expect(back).toHaveLength(2);
    expect(back.every((q, i) => qs[i] !== undefined && q.equals(qs[i]))).toBe(true);
  });

  it('writes Turtle and N-Triples (graph dropped) that parse back', async () => {
    const ttl = await text(quads(), 'turtle', { ex: 'http://ex.org/' });
    expect(ttl).toMatch(/@prefix ex: <http:\/\/ex.org\/>/);
    for (const [format, body] of [['Turtle', ttl], ['N-Triples', await text(quads(), 'ntriples')]] as const) {
      const back = new Parser({ format }).parse(body);
      expect(back.map((q) => [q.subject.value, q.object.value, q.graph.termType])).toEqual([
        ['http://ex.org/a', TRICKY, 'DefaultGraph'],
        ['http://ex.org/a', '1', 'DefaultGraph'],
      ]);
    }
  });

  it('refuses a format that cannot carry the result', () => {
    expect(() => formatResult(quads(), 'csv')).toThrow(RdfscoutError);
    expect(() => formatResult({ kind: 'boolean', value: true }, 'nquads')).toThrow(/cannot carry a boolean/);
  });
});
