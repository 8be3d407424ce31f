// **rdfscout query | serve**: SPARQL over a crawl, in-process or as a SPARQL 1.1 Protocol endpoint.
import { readFile } from 'node:fs/promises';
import { ArgumentError } from '../errors.ts';
import { FORMATS_BY_KIND, formatResult, type ResultFormat, runQuery, startEndpoint } from '../sparql/index.ts';
import { boolFlag, type FlagSpec, intFlag, oneOfFlag, parseFlags, strFlag } from './args.ts';
import { openShardsForReading, requireFolders, withShards } from './open-crawl.ts';
import { SHARDS_NOTE } from './read-commands.ts';
import { writeOut } from './stdout.ts';

export const QUERY_USAGE = `Usage: rdfscout query DIR… 'SPARQL' [--file Q.rq] [--format F]

Runs a read-only SPARQL 1.1 query over the crawl in DIR. The default graph is the RDF merge of all documents
(each triple once); GRAPH ?doc { … } names the document each triple came from; crawl metadata is in
GRAPH <urn:rdfscout:crawl> (not in the default graph).
${SHARDS_NOTE} The default graph stays a set across them.

  --file Q.rq              read the query from a file
  --format F               output format (default: table, for people). SELECT/ASK: json, xml, csv, tsv (the W3C
                           result formats); CONSTRUCT/DESCRIBE: nquads, turtle, ntriples, rdfxml, jsonld
  --timeout-ms N           stop the query after N ms (default 30000)
  --max-query-memory MB    stop the query when it needs more than MB of memory (default 512)
  --max-results N          stop after N solutions`;

export const SERVE_USAGE = `Usage: rdfscout serve DIR… [--host 127.0.0.1] [--port 3030]

Serves a read-only SPARQL 1.1 Protocol endpoint at http://HOST:PORT/sparql over the crawl in DIR, or over several
folders (a distributed crawl's shards) read as one crawl. A folder a crawl is writing to is served as a snapshot
taken at start (restart to see newer documents).

  --host H             address to listen on (default 127.0.0.1)
  --port N             port (default 3030; 0 = any free port)
  --timeout-ms N       per-query time limit (default 30000)
  --max-query-memory MB  per-query memory limit (default 512)
  --max-results N      per-query result limit (default 100000)
  --allow-service      let SERVICE clauses through (off by default)
  --cors               send CORS headers (off by default)
  --verbose            also log each query's phases (indexed, worker, head, done) with their ms

Logs one line per request to stderr: method, status, ms, rows sent, error code, the query's start.`;

export const QUERY_FLAGS: FlagSpec = {
  file: { type: 'string' },
  format: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'max-query-memory': { type: 'string' },
  'max-results': { type: 'string' },
};

const FORMATS = ['table', 'json', 'csv', 'tsv', 'xml', 'nquads', 'turtle', 'ntriples', 'rdfxml', 'jsonld'] as const;
const KIND_NAMES = { bindings: 'a SELECT query (solutions)', boolean: 'an ASK query (a boolean)', quads: 'a CONSTRUCT or DESCRIBE query (a graph)' } as const;

export async function runQueryCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, QUERY_FLAGS, QUERY_USAGE);
  const file = strFlag(values, 'file');
  // Without --file the query is the last argument, after the folders.
  const dirs = requireFolders(file ? positionals : positionals.slice(0, -1));
  let sparql = file ? undefined : positionals.at(-1);
  if (file) {
    try {
      sparql = await readFile(file, 'utf8');
    } catch (err) {
      throw new ArgumentError(`Cannot read --file ${file}: ${(err as Error).message}`);
    }
  }
  if (!sparql) throw new ArgumentError('missing the query: give it as the second argument or with --file');
  const format = oneOfFlag(values, 'format', FORMATS, 'table') as ResultFormat;
  await withShards(dirs, async ({ set }) => {
    const result = await runQuery(set, sparql, {
      timeoutMs: intFlag(values, 'timeout-ms', 1) ?? 30_000,
      maxQueryMemoryMb: intFlag(values, 'max-query-memory', 16) ?? 512,
      ...(intFlag(values, 'max-results', 0) !== undefined ? { maxResults: intFlag(values, 'max-results', 0) } : {}),
    });
    if (!FORMATS_BY_KIND[result.kind].includes(format)) {
      if (result.kind !== 'boolean') result.close();
      throw new ArgumentError(`--format ${format} cannot carry the result of ${KIND_NAMES[result.kind]}; use one of: ${FORMATS_BY_KIND[result.kind].join(', ')}.`);
    }
    for await (const chunk of formatResult(result, format)) await writeOut(chunk);
    if ('truncated' in result && result.truncated) process.stderr.write('(results truncated by --max-results)\n');
  });
  return 0;
}

export const SERVE_FLAGS: FlagSpec = {
  host: { type: 'string' },
  port: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'max-query-memory': { type: 'string' },
  'max-results': { type: 'string' },
  'allow-service': { type: 'boolean' },
  cors: { type: 'boolean' },
  verbose: { type: 'boolean' },
};

export async function runServeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, SERVE_FLAGS, SERVE_USAGE);
  const dirs = requireFolders(positionals);
  const crawl = await openShardsForReading(dirs); // a snapshot of a folder a crawl holds: it does not change
  const endpoint = await startEndpoint(crawl.set, {
    host: strFlag(values, 'host') ?? '127.0.0.1',
    port: intFlag(values, 'port', 0) ?? 3030,
    timeoutMs: intFlag(values, 'timeout-ms', 1) ?? 30_000,
    maxResults: intFlag(values, 'max-results', 0) ?? 100_000,
    maxQueryMemoryMb: intFlag(values, 'max-query-memory', 16) ?? 512,
    allowService: boolFlag(values, 'allow-service') ?? false,
    cors: boolFlag(values, 'cors') ?? false,
    log: (line) => process.stderr.write(`${line}\n`),
    verbose: boolFlag(values, 'verbose') ?? false,
  }).catch(async (err: unknown) => {
    await crawl.close();
    throw err;
  });
  const over = dirs.length === 1 ? '' : ` over ${dirs.length} shards read as one crawl`;
  process.stdout.write(`SPARQL endpoint: ${endpoint.url}${over} (read-only; Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await endpoint.close();
  await crawl.close();
  return 0;
}
