// Compares a W3C test's answer with the expected one: solutions as multisets (in order under ORDER BY), blank nodes up to renaming, graphs isomorphic.
import type { Quad, Term } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import { isomorphic } from 'rdf-isomorphic';
import { termToNt } from '../../src/sparql/format-results.ts';
import type { Answer, Row } from './expected.ts';

const df = new DataFactory();

/** A cell to match: a blank node label (matched up to renaming) or any other value (matched exactly). */
type Cell = { blank: string } | { exact: string };

const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** Datatypes whose computed values engines write in different lexical forms (`2E-1`, `2.0E-1`): compared by value. */
const BY_VALUE = new Set([`${XSD}double`, `${XSD}float`, `${XSD}decimal`]);

/**
 * A term as a cell. Language tags compare case-insensitively (RDF 1.1 §3.3); a double, float or decimal compares
 * by datatype and numeric value, as the W3C's own harnesses allow.
 */
function termCell(t: Term): Cell {
  if (t.termType === 'BlankNode') return { blank: t.value };
  if (t.termType === 'Literal' && t.language !== '') return { exact: `"${t.value}"@${t.language.toLowerCase()}` };
  if (t.termType === 'Literal' && BY_VALUE.has(t.datatype.value) && t.value.trim() !== '' && !Number.isNaN(Number(t.value))) return { exact: `${Number(t.value)}^^${t.datatype.value}` };
  return { exact: termToNt(t) };
}

/** A CSV field as a cell (a blank node is written `_:label`). */
function csvCell(field: string): Cell {
  return field.startsWith('_:') ? { blank: field } : { exact: field };
}

/** Rows as maps of cells; variables left unbound are absent. */
type CellRow = Map<string, Cell>;

/**
 * Whether there is one renaming of blank nodes (a bijection) under which `got` and `want` hold the same rows, each
 * as often (in the same order when `ordered`). Backtracking, rows without blank nodes first matched by key.
 */
function sameRows(got: CellRow[], want: CellRow[], ordered: boolean): boolean {
  if (got.length !== want.length) return false;
  const key = (r: CellRow): string => [...r.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => `${k}=${'blank' in c ? '_' : c.exact}`).join('\u0000');
  const hasBlank = (r: CellRow): boolean => [...r.values()].some((c) => 'blank' in c);
  if (!got.some(hasBlank) && !want.some(hasBlank)) {
    const a = got.map(key);
    const b = want.map(key);
    if (!ordered) {
      a.sort();
      b.sort();
    }
    return a.every((k, i) => k === b[i]);
  }
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  const used = new Set<number>();
  const unify = (w: CellRow, g: CellRow, added: string[]): boolean => {
    if (w.size !== g.size) return false;
    for (const [name, wc] of w) {
      const gc = g.get(name);
      if (gc === undefined) return false;
      if ('exact' in wc || 'exact' in gc) {
        if (!('exact' in wc && 'exact' in gc && wc.exact === gc.exact)) return false;
        continue;
      }
      const mapped = forward.get(wc.blank);
      if (mapped !== undefined) {
        if (mapped !== gc.blank) return false;
      } else {
        if (backward.has(gc.blank)) return false;
        forward.set(wc.blank, gc.blank);
        backward.set(gc.blank, wc.blank);
        added.push(wc.blank);
      }
    }
    return true;
  };
  const undo = (added: string[]): void => {
    for (const b of added) {
      backward.delete(forward.get(b) as string);
      forward.delete(b);
    }
  };
  const match = (i: number): boolean => {
    if (i === want.length) return true;
    const w = want[i] as CellRow;
    for (let c = ordered ? i : 0; c < (ordered ? i + 1 : got.length); c++) {
      if (used.has(c) || key(got[c] as CellRow) !== key(w)) continue;
      const added: string[] = [];
      if (unify(w, got[c] as CellRow, added)) {
        used.add(c);
        if (match(i + 1)) return true;
        used.delete(c);
      }
      undo(added);
    }
    return false;
  };
  return match(0);
}

const cellRows = (rows: Row[]): CellRow[] => rows.map((r) => new Map(Object.entries(r).map(([k, t]) => [k, termCell(t)])));
const show = (rows: Row[]): string => rows.slice(0, Number(process.env.W3C_SHOW ?? 3)).map((r) => Object.entries(r).map(([k, t]) => `${k}=${termToNt(t)}`).join(' ')).join(' | ');

/** Null when `got` answers as `want`; else what differs (for the report). */
export function compareAnswers(got: Answer, want: Answer, ordered: boolean): string | null {
  if (want.kind === 'rows' && got.kind === 'rows') {
    if (sameRows(cellRows(got.rows), cellRows(want.rows), ordered)) return null;
    return `${got.rows.length} rows vs ${want.rows.length} expected; got ${show(got.rows)}; expected ${show(want.rows)}`;
  }
  if (want.kind === 'boolean' && got.kind === 'boolean') return got.value === want.value ? null : `ASK ${got.value}, expected ${want.value}`;
  if (want.kind === 'graph' && got.kind === 'graph') {
    const triples = (qs: Quad[]): Quad[] => qs.map((q) => df.quad(q.subject, q.predicate, q.object));
    if (got.quads.length === want.quads.length && isomorphic(triples(got.quads), triples(want.quads))) return null;
    return `graph of ${got.quads.length} triples, expected ${want.quads.length}`;
  }
  if (want.kind === 'csv' && got.kind === 'csv') {
    const toRows = (a: { header: string[]; rows: string[][] }): CellRow[] =>
      a.rows.map((r) => new Map(a.header.map((h, i) => [h, csvCell(r[i] ?? '')] as const)));
    if (got.header.join(',') === want.header.join(',') && sameRows(toRows(got), toRows(want), ordered)) return null;
    return `CSV ${got.header.join(',')} × ${got.rows.length} rows, expected ${want.header.join(',')} × ${want.rows.length}`;
  }
  return `a ${got.kind} answer, expected ${want.kind}`;
}
