
import { Writable } from 'node:stream';
import { Parser } from 'n3';
import { expect, it } from 'vitest';
import { exportNQuads, stageDocuments } from '../../src/rdf/index.ts';
import { invalidTermIn } from '../../src/rdf/validate-ntriples.ts';
import { openState } from '../../src/state/open-state.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

it('invalidTermIn names relative IRIs, language-less rdf:langString and malformed tags; passes valid lines', () => {
  expect(invalidTermIn('<http://a/b> <http://p> "x \\" <y>"@en-GB .')).toBeNull();
  expect(invalidTermIn('_:b1 <http://p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .')).toBeNull();
  expect(invalidTermIn('<urn:isbn:1> <http://p> <http://a/\\u00E9> .')).toBeNull();
  expect(invalidTermIn(`<http://a> <http://p> "text/html"^^<${LANG_STRING}> .`)).toBe('rdf:langString literal without a language');
  expect(invalidTermIn('<http://a> <http://p> <_:b4663> .')).toBe('not an absolute IRI: <_:b4663>');
  expect(invalidTermIn('<rel/path> <http://p> "x" .')).toBe('not an absolute IRI: <rel/path>');
  expect(invalidTermIn('<http://a> <http://p> "x"@ .')).toBe('malformed language tag @');
});

it('exports the valid quads, declines and reports the others, and everything it writes parses strictly', async () => {
  const dir = await tempDir();
  const state = await openState(dir);
  try {
    const df = state.dataFactory;
    const g = df.namedNode('http://ex.org/doc');
    const s = df.namedNode('http://ex.org/s');
    const p = df.namedNode('http://ex.org/p');
    const txn = state.txn();
    stageDocuments(state, txn, [
      df.quad(s, p, df.literal('ok', 'en'), g),
      df.quad(s, p, df.literal('text/html', df.namedNode(LANG_STRING)), g), // as RDFa lang="" was stored
      df.quad(s, p, df.namedNode('_:b4663'), g), // as RDFa resource="_:b4663" was stored
      df.quad(s, p, df.blankNode('b1'), g),
    ]);
    await txn.commit();
    const parts: string[] = [];
    const out = new Writable({ write(chunk, _e, cb) { parts.push(String(chunk)); cb(); } });
    const declined: string[] = [];
    const count = await exportNQuads(state, out, { onInvalid: (d) => declined.push(d.reason) });
    expect(count).toBe(2);
    expect(declined.sort()).toEqual(['not an absolute IRI: <_:b4663>', 'rdf:langString literal without a language']);
    const text = parts.join('');
    expect(new Parser({ format: 'N-Quads' }).parse(text)).toHaveLength(2);
    for (const line of text.trim().split('\n')) expect(invalidTermIn(line.replace(/ <http:\/\/ex\.org\/doc> \.$/, ' .'))).toBeNull();
  } finally {
    await state.close();
  }
});
