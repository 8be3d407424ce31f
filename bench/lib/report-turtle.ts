// **reportTurtle** makes a large Turtle document like a test-suite report (bench/large-doc-cost.ts, bench/threads.ts).
import { Prng } from '../../src/random/prng.ts';

/** A Turtle report of `triples` triples (8 a subject: IRIs, language-tagged and typed literals, a blank node). */
export function reportTurtle(triples: number): string {
  const g = new Prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(g.next() * xs.length)] as T;
  const out = ['@prefix ex: <http://example.org/ns#> .', '@prefix foaf: <http://xmlns.com/foaf/0.1/> .', '@prefix dct: <http://purl.org/dc/terms/> .', '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .', ''];
  for (let i = 0, n = 0; n < triples; i++, n += 8) {
    out.push(
      `<http://example.org/report/${i}> a ex:Assertion ;\n  dct:title "Test case number ${i} of the suite, about ${pick(['parsing', 'storage', 'SPARQL', 'JSON-LD', 'RDF/XML'])}"@en ;\n` +
        `  ex:result ex:${pick(['passed', 'failed', 'inapplicable'])} ;\n  ex:test <http://example.org/tests/manifest#t${Math.floor(g.next() * 20000)}> ;\n` +
        `  dct:date "2024-0${1 + Math.floor(g.next() * 9)}-1${Math.floor(g.next() * 10)}"^^xsd:date ;\n` +
        `  ex:assertedBy [ foaf:name "Tester ${Math.floor(g.next() * 300)}" ; foaf:homepage <http://example.org/people/${Math.floor(g.next() * 300)}> ] .`,
    );
  }
  return `${out.join('\n')}\n`;
}
