// **parse-pool-worker**: a parse worker's thread: analyses the documents the main thread sends (parse-pool.ts).
import { parentPort } from 'node:worker_threads';
import type { IJsonLdContext } from 'jsonld-context-parser';
import { RdfscoutError } from '../errors.ts';
import type { ErrorCode } from '../errors.ts';
import type { RemoteContexts } from '../rdf/context-loader.ts';
import { type AnalysisOptions, analyseDocument } from './analyse-document.ts';
import { ChunkWriter } from './parse-pool-chunks.ts';
import { type FromWorker, fromWire, type Question, toPlainQuads, type ToWorker, type WireOptions } from './parse-pool-protocol.ts';

type Reply = Extract<ToWorker, { t: 'reply' }>;

const port = parentPort;
if (port === null) throw new Error('parse-pool-worker.ts runs as a worker thread (crawl/parse-pool.ts starts it)');

const optionsByKey = new Map<number, AnalysisOptions>();
const waiting = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
let nextReq = 0;

function post(m: FromWorker): void {
  port?.postMessage(m);
}

/** Asks the main thread about job `id`; rejects with the main thread's error (its code kept). */
function ask(id: number, key: number, q: Question): Promise<Reply> {
  const req = nextReq++;
  return new Promise<Reply>((resolve, reject) => {
    waiting.set(req, { resolve, reject });
    post({ t: 'ask', id, key, req, q });
  });
}

/**
 * The main thread's remote contexts as seen from here: each is asked for once and kept (`peek` answers from what this
 * worker loaded; one it has not loaded goes the streaming parser's way, which loads it: the same quads).
 */
function remoteContexts(key: number): RemoteContexts {
  const loaded = new Map<string, IJsonLdContext>();
  return {
    peek: (url) => loaded.get(url),
    async load(url) {
      const known = loaded.get(url);
      if (known !== undefined) return known;
      const r = await ask(-1, key, { k: 'context', url });
      const context = r.context as IJsonLdContext;
      loaded.set(url, context);
      return context;
    },
  };
}

function toOptions(key: number, w: WireOptions): AnalysisOptions {
  const { remoteContexts: remote, parse, ...rest } = w;
  return { ...rest, parse: { ...parse, remoteContexts: remote ? remoteContexts(key) : null } };
}

async function run(m: Extract<ToWorker, { t: 'job' }>): Promise<void> {
  const opts = optionsByKey.get(m.key);
  if (opts === undefined) throw new Error(`no options ${m.key} were sent before job ${m.id}`);
  let graph = '';
  // The graph is claimed on the main thread with the first full chunk, or with the analysis (most documents).
  const openDocument = async (finalUrl: string): Promise<ChunkWriter> => {
    graph = finalUrl;
    return new ChunkWriter({
      chunk: async (value, lines) => (await ask(m.id, m.key, { k: 'chunk', finalUrl, value, lines })).open === true,
      restart: async () => void (await ask(m.id, m.key, { k: 'restart' })),
    });
  };
  const { document, ...analysis } = await analyseDocument(fromWire(m.result), m.link, opts, openDocument);
  const sink = document === null ? null : { finalUrl: graph, ...document.rest() };
  post({ t: 'done', id: m.id, analysis: { ...analysis, partial: toPlainQuads(analysis.partial), sink } });
}

port.on('message', (m: ToWorker) => {
  if (m.t === 'options') optionsByKey.set(m.key, toOptions(m.key, m.opts));
  else if (m.t === 'job') {
    run(m).catch((err: unknown) => {
      const e = err as Error;
      post({ t: 'failed', id: m.id, code: err instanceof RdfscoutError ? err.code : 'RDFSCOUT_INTERNAL', message: String(e?.stack ?? err) });
    });
  } else {
    const w = waiting.get(m.req);
    waiting.delete(m.req);
    if (m.error === undefined) w?.resolve(m);
    else w?.reject(new RdfscoutError(m.error.code as ErrorCode, m.error.message));
  }
});
post({ t: 'ready' });
