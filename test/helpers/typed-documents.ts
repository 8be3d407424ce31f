// **stageTypedDocuments**: a crawl state holding `docs` documents of typed, labelled subjects (the SPARQL tests' data).
import type { Quad } from '@rdfjs/types';
import { stageDocuments } from '../../src/rdf/index.ts';
import type { CrawlState } from '../../src/state/open-state.ts';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

/**
 * Commits `docs` documents `${ex}doc<d>`, each with `subjects` subjects `${ex}s<i>` typed `${ex}C<i % classes>` and
 * labelled in English by `label(i, d)`: two triples a subject, one transaction a document.
 */
export async function stageTypedDocuments(state: CrawlState, o: { ex: string; docs: number; subjects: number; classes: number; label: (i: number, d: number) => string }): Promise<void> {
  const df = state.dataFactory;
  const n = (s: string) => df.namedNode(s);
  for (let d = 0; d < o.docs; d++) {
    const quads: Quad[] = [];
    for (let i = 0; i < o.subjects; i++) {
      quads.push(df.quad(n(`${o.ex}s${i}`), n(RDF_TYPE), n(`${o.ex}C${i % o.classes}`), n(`${o.ex}doc${d}`)));
      quads.push(df.quad(n(`${o.ex}s${i}`), n(`${o.ex}label`), df.literal(o.label(i, d), 'en'), n(`${o.ex}doc${d}`)));
    }
    const txn = state.txn();
    stageDocuments(state, txn, quads);
    await txn.commit();
  }
}
