// Child process of document-writer.test.ts: writes a large document's first chunks, says how many, and waits to be killed.
import { DocumentWriter } from '../../src/rdf/document-writer.ts';
import { parseRdfDocumentInto } from '../../src/rdf/parse-document.ts';
import { openState } from '../../src/state/open-state.ts';

const [dir, graph] = process.argv.slice(2) as [string, string];
const state = await openState(dir);
const writer = new DocumentWriter(state, graph);
const lines = ['@prefix ex: <http://ex.example/> .'];
for (let i = 0; i < 5000; i++) lines.push(`ex:p${i} ex:name "Person ${i}" ; ex:note "${'y'.repeat(60)}" .`);
await parseRdfDocumentInto(lines.join('\n'), 'text/turtle', graph, writer);
await writer.drained();
process.send?.(writer.spilledChunks);
setInterval(() => {}, 1000); // the fetch's transaction never commits: killed here
