// **ChunkWriter** serialises a document's quads in a parse worker as the main thread's DocumentWriter would, and hands full chunks over.
import type { Quad } from '@rdfjs/types';
import { Writer } from 'n3';
import { DOC_CHUNK_CHARS } from '../rdf/index.ts';
import { FingerprintSet } from '../rdf/fingerprint-set.ts';
import type { DocumentSink } from './analyse-document.ts';

/** Where a ChunkWriter's full chunks go (the main thread's DocumentWriter, over messages). */
export interface ChunkPort {
  /**
   * Takes one full chunk of `lines` distinct lines; resolves once it is written (rejects when the store failed), with
   * false when the document's graph turned out to be stored already (its quads are then only counted, as on one thread).
   */
  chunk(value: string, lines: number): Promise<boolean>;
  /** Forgets every chunk taken so far (the document is parsed again from its start). */
  restart(): Promise<void>;
}

/**
 * A document's quads as N-Triples lines, duplicates dropped, grouped into values of about DOC_CHUNK_CHARS characters
 * exactly as DocumentWriter groups them (the same lines, the same chunk boundaries: the stored values do not depend
 * on the thread that parsed). Each full chunk goes to `port` at once, and `drained()` waits for it to be written, so a
 * worker holds at most a chunk or two of a document whatever its size (DocumentWriter's back-pressure). What is
 * left at the end is `rest()`, sent with the analysis. Most documents are smaller than one chunk: they cross once,
 * with the analysis, and the main thread claims their graph then (no round trip while parsing).
 */
export class ChunkWriter implements DocumentSink {
  readonly #port: ChunkPort;
  readonly #writer = new Writer({ format: 'N-Triples' });
  readonly #seen = new FingerprintSet();
  #lines: string[] = [];
  #chars = 0;
  /** Distinct lines in `#lines`. */
  #pending = 0;
  /** The chunk being written, if any. */
  #writing: Promise<void> = Promise.resolve();
  /** Chunks handed to the port. */
  #sent = 0;
  /** The graph is stored already: quads are counted by the parser, not kept. */
  #dropped = false;

  constructor(port: ChunkPort) {
    this.#port = port;
  }

  add(q: Quad): void {
    if (this.#dropped) return;
    const line = this.#writer.quadToString(q.subject, q.predicate, q.object);
    if (!this.#seen.add(line)) return;
    this.#lines.push(line);
    this.#chars += line.length;
    this.#pending += 1;
    if (this.#chars < DOC_CHUNK_CHARS) return;
    const value = this.#lines.join('');
    const lines = this.#pending;
    this.#lines = [];
    this.#chars = 0;
    this.#pending = 0;
    const previous = this.#writing;
    this.#sent += 1;
    // Chunks leave in order; a failure is kept in the chain and surfaces at the next `drained()`.
    this.#writing = previous.then(async () => {
      if (this.#dropped) return;
      if (!(await this.#port.chunk(value, lines))) this.#drop();
    });
    this.#writing.catch(() => {}); // handled by whoever awaits `drained()` next, not an unhandled rejection meanwhile
  }

  drained(): Promise<void> {
    return this.#writing;
  }

  async restart(): Promise<void> {
    await this.#writing;
    if (this.#sent > 0 && !this.#dropped) await this.#port.restart();
    this.#sent = 0;
    this.#seen.clear();
    this.#lines = [];
    this.#chars = 0;
    this.#pending = 0;
  }

  /** The lines not sent in a full chunk, as one value, and how many they are. */
  rest(): { value: string; lines: number } {
    return { value: this.#lines.join(''), lines: this.#pending };
  }

  #drop(): void {
    this.#dropped = true;
    this.#lines = [];
    this.#chars = 0;
    this.#pending = 0;
  }
}
