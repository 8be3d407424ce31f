// Public face of `--sink` (docs/sink.md): a SPARQL 1.1 Graph Store Protocol client, one named graph per document.
export { GraphStoreSink } from './graph-store-sink.ts';
