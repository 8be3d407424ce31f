// The index keys built from stored N-Triples lines without n3 are the keys quadstore wrote for n3's quads (differential, generated lines).
import type { Quad } from '@rdfjs/types';
import { Parser, Writer } from 'n3';
import { DataFactory } from 'rdf-data-factory';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/random/prng.ts';
import { IndexKeyStager } from '../../src/state/index-keys.ts';
import type { KeyWriter } from '../../src/state/quad-keys.ts';
import { useTempState } from '../helpers/temp-state.ts';

const t = useTempState();
const GRAPH = 'http://docs.example.org/some/doc.ttl';

/** A batch that records the keys put into it (quadstore's own key writer fills it). */
function recordingBatch(): { keys: string[]; put(key: string, value?: unknown): unknown } {
  const keys: string[] = [];
  const batch = {
    keys,
    put(key: string): unknown {
      keys.push(key);
      return batch; // quadstore goes on with the batch put returns
    },
  };
  return batch;
}


/** What the indexer wrote before: each line parsed by n3 (skipped when n3 refuses it), its quads through quadstore. */
function referenceKeys(writer: KeyWriter, text: string): string[] {
  const df = new DataFactory();
  const batch = recordingBatch();
  const graph = df.namedNode(GRAPH);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let quads: Quad[] = [];
    try {
      quads = new Parser({ format: 'N-Triples', blankNodePrefix: '', factory: df }).parse(line);
    } catch {
      continue;
    }
    for (const q of quads) writer._batchPut(df.quad(q.subject, q.predicate, q.object, graph), batch);
  }
  return batch.keys;
}

function stagedKeys(writer: KeyWriter, text: string, perCall: number): string[] {
  const stager = new IndexKeyStager(writer, new DataFactory());
  const batch = recordingBatch();
  for (let from = 0; from < text.length; ) from = stager.stage(batch, GRAPH, text, from, perCall).next;
  return batch.keys;
}

const IRIS = ['http://xmlns.com/foaf/0.1/name', 'http://example.org/a#b', 'https://ex.example/é/ü?q=1&r=2', 'urn:isbn:123', 'http://x.example/', 'mailto:a@b.example', 'HTTP://UPPER.example/X'];
const ODD_IRIS = ['relative/path', 'relative', '#frag', 'http://ex.example/a b', 'http://ex.example/a|b', 'http://ex.example/a^b', 'http://ex.example/{x}', 'http://ex.example/`x`', 'http://ex.example/a"b', 'http://ex.example/\\u0041', '1http://x/', ''];
const LITERALS = ['plain', '', 'with "quotes"', 'line\nbreak', 'tab\there', 'back\\slash', 'carriage\rreturn', 'emoji 😀', 'é ü ß', '<not an iri>', ' _:b ', '"', '@en', '^^'];
const DATATYPES = ['http://www.w3.org/2001/XMLSchema#string', 'http://www.w3.org/2001/XMLSchema#integer', 'http://www.w3.org/2001/XMLSchema#double', 'http://www.w3.org/2001/XMLSchema#dateTime', 'http://www.w3.org/2001/XMLSchema#date', 'http://example.org/dt', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString'];
const NUMBERS = ['42', '-7', '3.14', '1e10', 'NaN', 'abc', '2024-01-02T03:04:05Z', '0', '-0.0'];
const LANGS = ['en', 'EN-us', 'de-CH-1996', 'x', 'toolongsubtag', 'en-', 'version', 'en--ltr', 'zh-Hant'];
const BLANKS = ['b0', 'b12_x', 'n3-5', 'A', '0a', 'a.b', 'a-', '-a', 'a.'];

/** One N-Triples line, mostly as n3's Writer writes it, sometimes raw text n3 may or may not read. */
function randomLine(g: Prng): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(g.next() * xs.length)] as T;
  const writer = new Writer({ format: 'N-Triples' });
  const df = new DataFactory();
  const r = g.next();
  if (r < 0.4) {
    // raw text: odd IRIs, labels, language tags, spacing and shapes that only n3 decides on
    const odd = (): boolean => g.next() < 0.3;
    const term = (): string => pick([`<${odd() ? pick(ODD_IRIS) : pick(IRIS)}>`, `_:${pick(BLANKS)}`, `"${pick(LITERALS).replace(/\n/g, '')}"`, `"x"@${pick(LANGS)}`, `"${pick(NUMBERS)}"^^<${pick(DATATYPES)}>`, '<< <http://a.example/s> <http://a.example/p> <http://a.example/o> >>']);
    const space = (): string => (odd() ? pick(['  ', '\t', '']) : ' ');
    return `${term()}${space()}<${pick(IRIS)}>${space()}${term()}${odd() ? pick(['.', ' . ', ' .\r', ' ']) : ' .'}`;
  }
  const subject = g.next() < 0.3 ? df.blankNode(pick(BLANKS.slice(0, 5))) : df.namedNode(pick(IRIS));
  const predicate = df.namedNode(pick(IRIS));
  let object: Quad['object'];
  const o = g.next();
  if (o < 0.25) object = df.namedNode(pick(IRIS));
  else if (o < 0.35) object = df.blankNode(pick(BLANKS.slice(0, 5)));
  else if (o < 0.55) object = df.literal(pick(LITERALS));
  else if (o < 0.7) object = df.literal(pick(LITERALS), pick(LANGS.slice(0, 4)));
  else if (o < 0.85) object = df.literal(pick(NUMBERS), df.namedNode(pick(DATATYPES.slice(0, 6))));
  else object = df.literal(pick(LITERALS), df.namedNode(pick(DATATYPES.slice(4, 6))));
  return writer.quadToString(subject, predicate, object);
}

describe('IndexKeyStager', () => {
  it('builds, for 3,000 generated lines, exactly the keys of n3 + quadstore.multiPut (seeds 1–5)', () => {
    const writer = t.state.quadstore as unknown as KeyWriter;
    for (let seed = 1; seed <= 5; seed++) {
      const g = new Prng(seed);
      const lines: string[] = [];
      for (let i = 0; i < 600; i++) lines.push(randomLine(g).replace(/\n$/, ''));
      const text = `${lines.join('\n')}\n`;
      const expected = referenceKeys(writer, text);
      expect(expected.length, `seed ${seed}`).toBeGreaterThan(1000); // most lines are read, three keys each
      expect(stagedKeys(writer, text, 1_000_000), `seed ${seed}`).toEqual(expected);
      expect(stagedKeys(writer, text, 7), `seed ${seed}, 7 quads a call`).toEqual(expected);
    }
  });

  it('stops after maxQuads quads at a line boundary and resumes there', () => {
    const writer = t.state.quadstore as unknown as KeyWriter;
    const text = '<http://a.example/s> <http://a.example/p> "1" .\n<http://a.example/s> <http://a.example/p> "2" .\n<http://a.example/s> <http://a.example/p> "3" .';
    const stager = new IndexKeyStager(writer, new DataFactory());
    const batch = recordingBatch();
    const first = stager.stage(batch, GRAPH, text, 0, 2);
    expect(first).toEqual({ next: text.indexOf('"3"') - '<http://a.example/s> <http://a.example/p> '.length, quads: 2 });
    expect(stager.stage(batch, GRAPH, text, first.next, 2)).toEqual({ next: text.length, quads: 1 });
    expect(batch.keys).toEqual(referenceKeys(writer, text));
  });
});
