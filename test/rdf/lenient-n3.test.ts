// Lenient Turtle-family parsing: a statement that fails is dropped, not the document; IRIs with illegal characters are
// percent-encoded; the record says what was dropped, with lines. Strict parsing (--strict-rdf) stays all or nothing.
// Generated documents are compared with an oracle that parses each statement alone with n3.
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/fetch/index.ts';
import { detectType, parseDocument, parseRdfDocumentInto } from '../../src/rdf/index.ts';
import { parseN3Lenient } from '../../src/rdf/lenient-n3.ts';
import { RecoveryLog } from '../../src/rdf/recovery-log.ts';
import { BlankNodeRelabeller, createBudget } from '../../src/rdf/run-parser.ts';
import { StatementScanner } from '../../src/rdf/statement-scanner.ts';
import { Prng } from '../../src/random/prng.ts';
import { buildWeb, respond } from '../../src/simweb/index.ts';
import { docUrl } from '../../src/simweb/web.ts';
import { fixture } from './helpers.ts';

const BASE = 'http://example.org/doc';
const N3_FORMATS = new Set(['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig']);
const key = (q: Quad): string => [q.subject, q.predicate, q.object, q.graph].map((t) => `${t.termType}:${t.value}:${'language' in t ? t.language : ''}:${'datatype' in t ? t.datatype.value : ''}`).join(' ');
const parseAs = (text: string, mediaType: string, strict = false) => parseDocument(text, { kind: 'rdf', mediaType }, BASE, { strict });
const objects = (qs: readonly Quad[]) => qs.map((q) => q.object.value);
const subjects = (qs: readonly Quad[]) => [...new Set(qs.map((q) => q.subject.value))];

describe('a statement is lost, not the document', () => {
  it('an IRI with "|" (a versioned canonical IRI) is percent-encoded and its triple kept', async () => {
    const doc = await parseAs(fixture('malformed/versioned.ttl'), 'text/turtle');
    expect(doc.error).toBeNull();
    expect(objects(doc.quads)).toContain('http://hl7.org/fhir/ValueSet/observation-status%7C4.0.1');
    expect(subjects(doc.quads)).toContain('http://hl7.org/fhir/CodeSystem/observation-status%7C4.0.1');
    expect(subjects(doc.quads)).toContain('http://example.org/with%20space');
    expect(subjects(doc.quads)).toContain('http://example.org/caret%5Eand%60backtick');
    expect(doc.quads).toHaveLength(13);
    expect(doc.recovery).toEqual({ dropped: 0, repaired: 5, errors: [] });
    // The literal holding braces and quotes is not touched.
    expect(objects(doc.quads)).toContain('an IRI with a space, {braces}, a "quote" in the literal');
  });

  it('an undefined prefix in the middle drops its statement; the triples before and after it are kept', async () => {
    const doc = await parseAs(fixture('malformed/undefined-prefix.ttl'), 'text/turtle');
    expect(doc.error).toBeNull();
    expect(subjects(doc.quads)).toEqual(['http://example.org/alice', 'http://example.org/bob', 'http://example.org/dave', 'http://example.org/erin']);
    expect(doc.quads).toHaveLength(6);
    expect(doc.recovery).toEqual({ dropped: 1, repaired: 0, errors: [{ code: 'RDFSCOUT_PARSE_FAILED', message: 'Undefined prefix "schema:"', line: 8 }] });
  });

  it('a syntax error in the middle drops its statement; strings, lists, blank nodes and numbers around it are read', async () => {
    const doc = await parseAs(fixture('malformed/syntax-error.ttl'), 'text/turtle');
    expect(doc.error).toBeNull();
    const subs = subjects(doc.quads).filter((s) => s.startsWith('http://'));
    expect(subs).toEqual(['a', 'b', 'g', 'h', 'i', 'k', 'l', 'm'].map((x) => `http://example.org/${x}`));
    expect(objects(doc.quads)).toContain('a long\nstring with . and # inside');
    expect(doc.recovery?.dropped).toBe(2);
    expect(doc.recovery?.errors.map((e) => e.line)).toEqual([4, 8]);
  });

  it('N-Triples: bad lines are dropped, an IRI with a space repaired', async () => {
    const doc = await parseAs(fixture('malformed/bad-lines.nt'), 'application/n-triples');
    expect(subjects(doc.quads)).toEqual(['s1', 's2', 's4', 's6'].map((s) => `http://example.org/${s}`));
    expect(objects(doc.quads)).toContain('http://example.org/with%20space');
    expect(doc.recovery?.errors.map((e) => e.line)).toEqual([3, 5]);
  });

  it('TriG: a bad statement inside a graph block drops that statement only; the block keeps its graph', async () => {
    const doc = await parseAs(fixture('malformed/graphs.trig'), 'application/trig');
    expect(doc.quads.map((q) => `${q.subject.value} ${q.graph.value}`)).toEqual([
      'http://example.org/a http://example.org/g1',
      'http://example.org/d http://example.org/g1',
      'http://example.org/f http://example.org/g2',
      'http://example.org/h http://example.org/g2',
    ]);
    expect(doc.recovery?.errors).toEqual([{ code: 'RDFSCOUT_PARSE_FAILED', message: 'Undefined prefix "nope:"', line: 4 }]);
  });

  it('an error far into a large file (past the first chunks) loses one statement; the lines are the document\'s', async () => {
    const good = '<http://a.org/s> <http://a.org/p> "a value" .\n'.repeat(20_000);
    const other = '<http://a.org/t> <http://a.org/p> "another value" .\n'.repeat(20_000);
    const doc = await parseAs(`${good}<http://a.org/s> <http://a.org/p> broken .\n${other}`, 'application/n-triples');
    expect(doc.error).toBeNull();
    expect(doc.quads).toHaveLength(40_000);
    expect(doc.recovery?.errors[0]?.line).toBe(20_001);
  });

  it('prefixes, @base and SPARQL-style directives carry over chunks and failed statements', async () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `ex:s${i} ex:p "${'x'.repeat(20)}" .`).join('\n');
    const text = `PREFIX ex: <http://example.org/>\nBASE <http://base.example/dir/>\n${filler}\nex:bad ex:p undefined:x .\n@prefix late: <http://late.example/> .\n${filler}\nlate:a ex:p <rel> .\n`;
    const doc = await parseAs(text, 'text/turtle');
    expect(doc.quads).toHaveLength(6001);
    expect(doc.quads.at(-1)?.subject.value).toBe('http://late.example/a');
    expect(doc.quads.at(-1)?.object.value).toBe('http://base.example/dir/rel');
    expect(doc.recovery?.dropped).toBe(1);
  });

  it('blank-node labels are one node across chunks; [] nodes stay apart', async () => {
    const filler = Array.from({ length: 4000 }, (_, i) => `<http://a.org/s${i}> <http://a.org/p> "${'y'.repeat(20)}" .`).join('\n');
    const doc = await parseAs(`_:x <http://a.org/p> [ <http://a.org/q> "1" ] .\n${filler}\n_:x <http://a.org/p> [ <http://a.org/q> "2" ] .\n`, 'text/turtle');
    const first = doc.quads.find((q) => q.object.termType === 'BlankNode' && q.subject.termType === 'BlankNode')!;
    const last = doc.quads.findLast((q) => q.object.termType === 'BlankNode' && q.subject.termType === 'BlankNode')!;
    expect(first.subject.value).toBe(last.subject.value);
    expect(first.object.value).not.toBe(last.object.value);
  });
});

describe('--strict-rdf keeps all or nothing', () => {
  it.each([
    ['malformed/versioned.ttl', 'text/turtle', 9],
    ['malformed/undefined-prefix.ttl', 'text/turtle', 8],
    ['malformed/syntax-error.ttl', 'text/turtle', 4],
    ['malformed/bad-lines.nt', 'application/n-triples', 2],
    ['malformed/graphs.trig', 'application/trig', 4],
  ])('%s fails whole, on line %i', async (file, mediaType, line) => {
    const doc = await parseAs(fixture(file), mediaType, true);
    expect(doc.quads).toEqual([]);
    expect(doc.error).toMatchObject({ code: 'RDFSCOUT_PARSE_FAILED', line });
    expect(doc.recovery).toBeUndefined();
  });

  it('RDF/XML with an IRI the parser refuses: lenient keeps the triple encoded, strict fails', async () => {
    const lenient = await parseAs(fixture('malformed/bad-iri.rdf'), 'application/rdf+xml');
    expect(objects(lenient.quads)).toEqual(['A document', 'http://example.org/ValueSet/status%7C4.0.1', 'http://example.org/with%20space']);
    expect(lenient.recovery?.repaired).toBe(2);
    const strict = await parseAs(fixture('malformed/bad-iri.rdf'), 'application/rdf+xml', true);
    expect(strict.quads).toEqual([]);
    expect(strict.error?.line).toBe(5);
  });
});

describe('the lenient reader equals the strict one on valid text', () => {
  it('every Turtle, N-Triples, N-Quads and TriG document of the simulated web gives the same quads, in order', async () => {
    const web = buildWeb({ profiles: 'all', seed: 2, scale: 0.3 });
    let compared = 0;
    for (const site of web.sites) {
      for (const d of site.docs) {
        if (d.kind !== 'rdf') continue;
        const url = docUrl(site, d);
        const res = respond(web, url);
        const contentType = res.headers['content-type'] ?? null;
        const detected = detectType(res.body, contentType, url);
        if (detected.kind !== 'rdf' || !N3_FORMATS.has(detected.mediaType)) continue;
        const { text } = decodeText(res.body, contentType);
        const strict = await parseDocument(text, detected, url, { strict: true });
        const lenient = await parseDocument(text, detected, url);
        expect(strict.error).toBeNull();
        expect(lenient.quads.map(key)).toEqual(strict.quads.map(key));
        expect(lenient.recovery).toBeUndefined();
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

/** Statements of a generated document: valid ones of many shapes, broken ones; each with the triples it states. */
function statement(rng: Prng, i: number): { text: string; triples: number; ok: boolean } {
  const valid: Array<[string, number]> = [
    [`ex:s${i} ex:p "a . b # c" .`, 1],
    [`ex:s${i} ex:p """long . "quoted" \n# not a comment\n""" ; ex:q 1.5, -2, 3e4 .`, 4],
    [`<http://ex.org/a|b${i}> ex:p <http://ex.org/{x}${i}> .`, 1],
    [`ex:s${i} ex:p [ ex:q ( 1 2 "." ) ] .`, 8],
    [`ex:s${i} ex:p 'single . quote' , "tag"@en-GB .\n# a comment with a dot . and "quote\n`, 2],
    [`_:b${i % 5} ex:p ex:o${i} ; a ex:C .`, 2],
    [`ex:s${i} ex:p "esc \\" . still" .`, 1],
    [`ex:loc\\.al${i} ex:p ex:o .`, 1],
  ];
  const broken = [`ex:s${i} ex:p nope:x .`, `ex:s${i} ex:p ex:o ex:extra .`, `ex:s${i} ex:p "unterminated .`, `ex:s${i} ex:p , .`, `ex:s${i} ex:p <http://ex.org/a\nb> .`];
  if (rng.next() < 0.2) return { text: broken[rng.nextInt(broken.length)]!, triples: 0, ok: false };
  const [text, triples] = valid[rng.nextInt(valid.length)]!;
  return { text, triples, ok: true };
}

describe('generated documents against a statement-by-statement oracle', () => {
  it('keeps exactly the triples of the valid statements (300 seeded documents, cut in random pieces)', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rng = new Prng(seed);
      const stmts = Array.from({ length: 1 + Math.floor(rng.next() * 40) }, (_, i) => statement(rng, i));
      const text = `@prefix ex: <http://ex.org/> .\n${stmts.map((s) => s.text).join(rng.next() < 0.5 ? '\n' : '\n\n')}\n`;
      // The oracle: each statement alone, after the prefix (a broken one yields nothing).
      let expected = 0;
      for (const s of stmts) {
        try {
          expected += new Parser({ format: 'text/turtle' }).parse(`@prefix ex: <http://ex.org/> .\n${repairIris(s.text)}`).length;
        } catch {
          expect(s.ok, `seed ${seed}: the oracle refused a valid statement: ${s.text}`).toBe(false);
        }
      }
      // Pieces of random sizes, and chunks of a few hundred characters: every cut point is exercised.
      const pieces: string[] = [];
      for (let at = 0; at < text.length; ) {
        const n = 1 + Math.floor(rng.next() * 50);
        pieces.push(text.slice(at, at + n));
        at += n;
      }
      const quads: Quad[] = [];
      const log = new RecoveryLog();
      const run = await parseN3Lenient(pieces, 'text/turtle', BASE, new BlankNodeRelabeller('x_'), createBudget(1e6, 1e6), { add: (q) => quads.push(q) }, log, 200);
      expect(run.error, `seed ${seed}`).toBeNull();
      expect(quads.length, `seed ${seed}:\n${text}`).toBe(expected);
      expect(log.dropped, `seed ${seed}`).toBe(stmts.filter((s) => !s.ok).length);
    }
  });

  it('the scanner cuts only between statements, wherever the pieces end', () => {
    const text = '@prefix ex: <http://ex.org/> .\nex:a ex:p "x . y" . ex:b ex:p """z .\n""" .\nex:c ex:p [ ex:q 1 ] . # end .\n';
    const whole = new StatementScanner('turtle');
    whole.push(text);
    whole.end();
    const ends = whole.take(0)!.statements.map((s) => s.end);
    for (let size = 1; size <= 9; size++) {
      const s = new StatementScanner('turtle');
      for (let at = 0; at < text.length; at += size) s.push(text.slice(at, at + size));
      s.end();
      expect(s.take(0)!.statements.map((x) => x.end), `pieces of ${size}`).toEqual(ends);
    }
    const texts = ends.map((e, i) => text.slice(i === 0 ? 0 : ends[i - 1], e).trim());
    expect(texts).toEqual(['@prefix ex: <http://ex.org/> .', 'ex:a ex:p "x . y" .', 'ex:b ex:p """z .\n""" .', 'ex:c ex:p [ ex:q 1 ] .', '# end .']);
  });
});

/** The IRIs of a statement with illegal characters encoded, as the lenient reader does (for the oracle). */
function repairIris(text: string): string {
  return text.replace(/<([^<>\n]*)>/g, (_m, iri: string) => `<${iri.replace(/[{}|^`\\ "]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}>`);
}

describe('the crawl path (streamed body into a target)', () => {
  it('reports the recovery of a streamed document', async () => {
    const quads: Quad[] = [];
    const r = await parseRdfDocumentInto(() => [fixture('malformed/undefined-prefix.ttl')], 'text/turtle', BASE, { add: (q) => quads.push(q) });
    expect(r.error).toBeNull();
    expect(r.count).toBe(6);
    expect(r.recovery).toMatchObject({ dropped: 1, errors: [{ line: 8 }] });
  });
});
