// Public face of the `--sink` groundwork (issue 15): a SPARQL 1.1 Graph Store Protocol client, one named graph per document.
export { GRAPH_BODY_TYPE, graphBody } from './graph-body.ts';
export { GraphStoreSink, type GraphStoreSinkOptions, type SinkDocument, type SinkReport, type SinkResult } from './graph-store-sink.ts';
