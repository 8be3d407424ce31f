// **parse-pool-worker**: a parse worker's thread: analyses the documents the main thread sends (parse-pool.ts).
import { type MessagePort, parentPort } from 'node:worker_threads';
import type { IJsonLdContext } from 'jsonld-context-parser';
import { type ErrorCode, RdfscoutError } from '../errors.ts';
import type { RemoteContexts } from '../rdf/context-loader.ts';
import { type AnalysisOptions, analyseDocument } from './analyse-document.ts';
import { ChunkWriter } from './parse-pool-chunks.ts';
import { type FromWorker, fromWire, type Question, type ToWorker, toPlainQuads, type WireOptions } from './parse-pool-protocol.ts';

type Reply = Extract<ToWorker, { t: 'reply' }>;

/** This thread's side of the pool: the options it was sent, and its questions to the main thread awaiting a reply. */
class ParseWorker {
  readonly #port: MessagePort;
  readonly #options = new Map<number, AnalysisOptions>();
  readonly #waiting = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
  #nextReq = 0;

  constructor(port: MessagePort) {
    this.#port = port;
    port.on('message', (m: ToWorker) => this.#receive(m));
    this.#post({ t: 'ready' });
  }

  #post(m: FromWorker): void {
    this.#port.postMessage(m);
  }

  #receive(m: ToWorker): void {
    if (m.t === 'options') this.#options.set(m.key, this.#toOptions(m.key, m.opts));
    else if (m.t === 'job') {
      this.#run(m).catch((err: unknown) => {
        const code = err instanceof RdfscoutError ? err.code : 'RDFSCOUT_INTERNAL';
        this.#post({ t: 'failed', id: m.id, code, message: String((err as Error)?.stack ?? err) });
      });
    } else {
      const w = this.#waiting.get(m.req);
      this.#waiting.delete(m.req);
      if (m.error === undefined) w?.resolve(m);
      else w?.reject(new RdfscoutError(m.error.code as ErrorCode, m.error.message));
    }
  }

  /** Asks the main thread about job `id`; rejects with the main thread's error (its code kept). */
  #ask(id: number, key: number, q: Question): Promise<Reply> {
    const req = this.#nextReq++;
    return new Promise<Reply>((resolve, reject) => {
      this.#waiting.set(req, { resolve, reject });
      this.#post({ t: 'ask', id, key, req, q });
    });
  }

  /**
   * The main thread's remote contexts as seen from here: each is asked for once and kept (`peek` answers from what
   * this worker loaded; one it has not loaded goes the streaming parser's way, which loads it: the same quads).
   */
  #remoteContexts(key: number): RemoteContexts {
    const loaded = new Map<string, IJsonLdContext>();
    return {
      peek: (url) => loaded.get(url),
      load: async (url) => {
        const known = loaded.get(url);
        if (known !== undefined) return known;
        const context = (await this.#ask(-1, key, { k: 'context', url })).context as IJsonLdContext;
        loaded.set(url, context);
        return context;
      },
    };
  }

  #toOptions(key: number, w: WireOptions): AnalysisOptions {
    const { remoteContexts: remote, parse, ...rest } = w;
    return { ...rest, parse: { ...parse, remoteContexts: remote ? this.#remoteContexts(key) : null } };
  }

  async #run(m: Extract<ToWorker, { t: 'job' }>): Promise<void> {
    const opts = this.#options.get(m.key);
    if (opts === undefined) throw new Error(`no options ${m.key} were sent before job ${m.id}`);
    let graph = '';
    // The graph is claimed on the main thread with the first full chunk, or with the analysis (most documents).
    const openDocument = async (finalUrl: string): Promise<ChunkWriter> => {
      graph = finalUrl;
      return new ChunkWriter({
        chunk: async (value, lines) => (await this.#ask(m.id, m.key, { k: 'chunk', finalUrl, value, lines })).open === true,
        restart: async () => void (await this.#ask(m.id, m.key, { k: 'restart' })),
      });
    };
    const { document, ...analysis } = await analyseDocument(fromWire(m.result), m.link, opts, openDocument);
    const sink = document === null ? null : { finalUrl: graph, ...document.rest() };
    this.#post({ t: 'done', id: m.id, analysis: { ...analysis, partial: toPlainQuads(analysis.partial), sink } });
  }
}

if (parentPort === null) throw new Error('parse-pool-worker.ts runs as a worker thread (crawl/parse-pool.ts starts it)');
new ParseWorker(parentPort);
