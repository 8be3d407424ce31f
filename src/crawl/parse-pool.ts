// **ParsePool** analyses fetched documents in worker threads, so that parsing takes other cores than the crawl's loop.
import { Worker } from 'node:worker_threads';
import type { IJsonLdContext } from 'jsonld-context-parser';
import { RdfscoutError } from '../errors.ts';
import type { ErrorCode } from '../errors.ts';
import type { FetchResult } from '../fetch/types.ts';
import type { LinkFeatures } from '../links/types.ts';
import type { DocumentWriter } from '../rdf/index.ts';
import { type AnalysisOptions, analyseDocument, type DocumentAnalysis, type OpenDocument } from './analyse-document.ts';
import { type FromWorker, fromPlainQuads, type Question, type ToWorker, type WireAnalysis, type WireOptions, type WireResult } from './parse-pool-protocol.ts';

/** One document in a worker: how it ends, and the main thread's writer of its quads. */
interface Job {
  resolve(a: DocumentAnalysis): void;
  reject(e: unknown): void;
  openDocument: OpenDocument;
  /** Whether its graph was claimed (`openDocument` asked), and the writer it gave: null when stored already. */
  opened: boolean;
  writer: DocumentWriter | null;
  /** The store's failure met while writing its chunks (it ends the crawl, whatever the worker says next). */
  storeError: unknown;
}

interface Member {
  worker: Worker;
  jobs: Map<number, Job>;
  dead: RdfscoutError | null;
}

/** How a ParsePool is made. */
export interface ParsePoolOptions {
  /** Worker threads (≥ 1). */
  size: number;
  /** Bodies smaller than this many bytes are analysed on the calling thread. Default: 0 (every body goes to a worker). */
  minBytes?: number;
}

/**
 * A fixed number of worker threads (parse-pool-worker.ts), started when the first document comes that is large
 * enough for them (`minBytes`), each running `analyseDocument` on the documents it is given: sniffing, decoding, link
 * extraction, RDF parsing and N-Triples serialisation happen there. What stays on the main thread is what touches
 * the crawl's state: claiming a document's graph (`openDocument`), writing its chunks
 * (the DocumentWriter, with its pending marks), fetching JSON-LD contexts, and everything after the analysis (plan,
 * commit). Nothing is committed from a worker, so crash safety is the single thread's. Each job's quads come back in
 * full chunks as they are made, each written before the worker goes on (the writer's back-pressure), so memory
 * stays bounded per document as on one thread; the parse budget is the worker's CPU time for the document.
 *
 * A document goes to the worker with the fewest documents in hand. A worker that dies fails its documents
 * (RDFSCOUT_INTERNAL: the crawl stops, nothing of them committed) and takes no more.
 */
export class ParsePool {
  readonly #size: number;
  readonly #minBytes: number;
  #members: Member[] = [];
  /** The workers' start, once a document needed them. */
  #starting: Promise<void> | null = null;
  #closed = false;
  readonly #keys = new WeakMap<AnalysisOptions, number>();
  readonly #options: AnalysisOptions[] = [];
  #nextId = 0;

  constructor(o: ParsePoolOptions) {
    if (!Number.isSafeInteger(o.size) || o.size < 1) throw new RdfscoutError('RDFSCOUT_INTERNAL', `A parse pool needs at least one worker, got ${o.size}.`);
    this.#size = o.size;
    this.#minBytes = o.minBytes ?? 0;
  }

  /** Workers alive (0 before the first document that needed them). */
  get size(): number {
    return this.#members.filter((m) => m.dead === null).length;
  }

  /** Whether the workers were started. */
  get started(): boolean {
    return this.#starting !== null;
  }

  /** Starts the workers (once) and waits until each is ready; they are told every set of options known. */
  #start(): Promise<void> {
    this.#starting ??= (async () => {
      const entry = new URL(`./parse-pool-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
      const workers = await Promise.all(Array.from({ length: this.#size }, () => startWorker(entry)));
      this.#members = workers.map((worker) => ({ worker, jobs: new Map(), dead: null }));
      for (const m of this.#members) {
        m.worker.on('message', (msg: FromWorker) => this.#receive(m, msg));
        m.worker.on('error', (err) => this.#die(m, err));
        m.worker.on('exit', (code) => this.#die(m, new Error(`it exited (code ${code})`)));
        m.worker.unref(); // referenced only while it holds a document
        for (const [key, opts] of this.#options.entries()) m.worker.postMessage({ t: 'options', key, opts: wireOptions(opts) } satisfies ToWorker);
      }
      if (this.#closed) await this.close();
    })();
    return this.#starting;
  }

  /** `analyseDocument` in a worker (same arguments, same result); a fetch without a body is analysed here (nothing to parse). */
  readonly analyse = (result: FetchResult, link: LinkFeatures | null, opts: AnalysisOptions, openDocument: OpenDocument): Promise<DocumentAnalysis> => {
    if (result.kind !== 'ok' || result.body.byteLength < this.#minBytes) return analyseDocument(result, link, opts, openDocument);
    if (this.#members.length === 0) return this.#start().then(() => this.#dispatch(result, link, opts, openDocument));
    return this.#dispatch(result, link, opts, openDocument);
  };

  #dispatch(result: FetchResult & { kind: 'ok' }, link: LinkFeatures | null, opts: AnalysisOptions, openDocument: OpenDocument): Promise<DocumentAnalysis> {
    const member = this.#pick();
    if (member === null) return Promise.reject(new RdfscoutError('RDFSCOUT_INTERNAL', 'Every parse worker has died; the crawl cannot parse documents.'));
    const key = this.#keyOf(opts);
    const id = this.#nextId++;
    // The body is copied by the message (cheaper than a transfer): its own bytes, or a copy of them when the Buffer
    // shares a larger ArrayBuffer (a pooled one), which the message would copy whole.
    const b = result.body;
    let body = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) {
      body = new Uint8Array(b.byteLength);
      body.set(b);
    }
    const wire: WireResult = { url: result.url, finalUrl: result.finalUrl, status: result.status, contentType: result.contentType, link: result.headers.link, charset: result.charset, body };
    return new Promise<DocumentAnalysis>((resolve, reject) => {
      if (member.jobs.size === 0) member.worker.ref();
      member.jobs.set(id, { resolve, reject, openDocument, opened: false, writer: null, storeError: null });
      member.worker.postMessage({ t: 'job', id, key, result: wire, link } satisfies ToWorker);
    });
  }

  /** Stops the workers (documents in hand fail); a pool closed before its start starts none. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#members.map((m) => m.worker.terminate()));
  }

  #pick(): Member | null {
    let best: Member | null = null;
    for (const m of this.#members) if (m.dead === null && (best === null || m.jobs.size < best.jobs.size)) best = m;
    return best;
  }

  /** The number of `opts` (every worker is sent them once; a crawl has one set). */
  #keyOf(opts: AnalysisOptions): number {
    let key = this.#keys.get(opts);
    if (key !== undefined) return key;
    key = this.#options.length;
    this.#options.push(opts);
    this.#keys.set(opts, key);
    for (const m of this.#members) if (m.dead === null) m.worker.postMessage({ t: 'options', key, opts: wireOptions(opts) } satisfies ToWorker);
    return key;
  }

  #receive(m: Member, msg: FromWorker): void {
    if (msg.t === 'ask') {
      void this.#answer(m, msg.id, msg.key, msg.q).then(
        (r) => this.#post(m, { t: 'reply', req: msg.req, ...r }),
        (err: unknown) => this.#post(m, { t: 'reply', req: msg.req, error: errorOf(err) }),
      );
      return;
    }
    if (msg.t === 'ready') return;
    const job = m.jobs.get(msg.id);
    if (job === undefined) return;
    this.#finish(m, msg.id);
    if (msg.t === 'failed') {
      job.reject(job.storeError ?? new RdfscoutError(msg.code as ErrorCode, `A parse worker failed: ${msg.message}`));
      return;
    }
    this.#conclude(job, msg.analysis).then(job.resolve, job.reject);
  }

  /** The analysis of a job with its writer: the graph claimed now unless a full chunk claimed it, the last lines added. */
  async #conclude(job: Job, wire: WireAnalysis): Promise<DocumentAnalysis> {
    const { sink, ...rest } = wire;
    const analysis = { ...rest, partial: fromPlainQuads(rest.partial) };
    if (sink === null) return { ...analysis, document: null };
    const writer = await this.#open(job, sink.finalUrl);
    // Stored already (or being stored by another fetch): the quads were counted, not kept (as analyseDocument says).
    if (writer === null) return { ...analysis, document: null, storedAlready: true };
    writer.addSerialised(sink.value, sink.lines);
    await writer.drained();
    return { ...analysis, document: writer, storedAlready: false };
  }

  async #open(job: Job, finalUrl: string): Promise<DocumentWriter | null> {
    if (!job.opened) {
      job.opened = true;
      job.writer = await job.openDocument(finalUrl);
    }
    return job.writer;
  }

  /** Answers a worker's question about a job of `m` (or, for a context, about the options `key`). */
  async #answer(m: Member, id: number, key: number, q: Question): Promise<{ open?: boolean; context?: IJsonLdContext }> {
    if (q.k === 'context') {
      const remote = this.#options[key]?.parse?.remoteContexts;
      if (remote == null) throw new RdfscoutError('RDFSCOUT_REMOTE_CONTEXT', `No remote contexts in this crawl: ${q.url}`);
      return { context: await remote.load(q.url) };
    }
    const job = m.jobs.get(id);
    if (job === undefined) throw new RdfscoutError('RDFSCOUT_INTERNAL', `No document ${id} in this worker`);
    try {
      if (q.k === 'restart') {
        await job.writer?.restart();
        return {};
      }
      const writer = await this.#open(job, q.finalUrl);
      if (writer === null) return { open: false };
      writer.addSerialised(q.value, q.lines);
      await writer.drained();
      return { open: true };
    } catch (err) {
      job.storeError ??= err;
      throw err;
    }
  }

  #post(m: Member, msg: ToWorker): void {
    if (m.dead === null) m.worker.postMessage(msg);
  }

  #finish(m: Member, id: number): void {
    m.jobs.delete(id);
    if (m.jobs.size === 0 && m.dead === null) m.worker.unref();
  }

  #die(m: Member, err: Error): void {
    if (m.dead !== null) return;
    m.dead = new RdfscoutError('RDFSCOUT_INTERNAL', `A parse worker died: ${err.message}`, { cause: err });
    for (const job of m.jobs.values()) job.reject(job.storeError ?? m.dead);
    m.jobs.clear();
  }
}

/** Analysis options as a worker gets them: the remote contexts stay here (the worker asks for each). */
function wireOptions(opts: AnalysisOptions): WireOptions {
  const { parse, ...rest } = opts;
  const { remoteContexts, ...wireParse } = parse ?? {};
  return { ...rest, ...(parse === undefined ? {} : { parse: wireParse }), remoteContexts: remoteContexts != null };
}

function errorOf(err: unknown): { code: string; message: string } {
  return { code: err instanceof RdfscoutError ? err.code : 'RDFSCOUT_INTERNAL', message: err instanceof Error ? err.message : String(err) };
}

/** A worker on `entry`, once it said it is ready. */
async function startWorker(entry: URL): Promise<Worker> {
  const worker = new Worker(entry);
  await new Promise<void>((resolve, reject) => {
    const settle = (err: Error | null): void => {
      worker.off('error', settle).off('exit', exited).off('message', said);
      if (err === null) resolve();
      else reject(new RdfscoutError('RDFSCOUT_INTERNAL', `Could not start a parse worker: ${err.message}`, { cause: err }));
    };
    const exited = (code: number): void => settle(new Error(`it exited (code ${code})`));
    const said = (m: FromWorker): void => settle(m.t === 'ready' ? null : new Error(`it said ${m.t} before ready`));
    worker.on('error', settle).on('exit', exited).on('message', said);
  });
  return worker;
}
