// **parse-pool-protocol**: the messages between the crawl's main thread and its parse workers (parse-pool.ts).
import type { Literal, Quad, Term } from '@rdfjs/types';
import type { IJsonLdContext } from 'jsonld-context-parser';
import { DataFactory } from 'rdf-data-factory';
import type { FetchResult } from '../fetch/types.ts';
import type { LinkFeatures } from '../links/types.ts';
import type { ParseOptions } from '../rdf/index.ts';
import type { AnalysisOptions, DocumentAnalysis } from './analyse-document.ts';

/** AnalysisOptions as they cross to a worker: the remote contexts stay on the main thread (`remoteContexts`: whether any). */
export interface WireOptions extends Omit<AnalysisOptions, 'parse'> {
  parse?: Omit<ParseOptions, 'remoteContexts'>;
  remoteContexts: boolean;
}

/** A fetched document as it crosses to a worker: what `analyseDocument` reads of it, the body's bytes transferred. */
export interface WireResult {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string | null;
  /** The Link header only (the one header the analysis reads). */
  link: string | undefined;
  charset: string | null;
  body: Uint8Array;
}

/** What a worker asks the main thread while it analyses job `id`. */
export type Question =
  | { k: 'chunk'; finalUrl: string; value: string; lines: number }
  | { k: 'restart' }
  | { k: 'context'; url: string };

export type ToWorker =
  | { t: 'options'; key: number; opts: WireOptions }
  | { t: 'job'; id: number; key: number; result: WireResult; link: LinkFeatures | null }
  | { t: 'reply'; req: number; open?: boolean; context?: IJsonLdContext; error?: { code: string; message: string } };

/**
 * The analysis as it comes back: no writer (the main thread holds it, or opens it now), and, when the document has
 * quads to store, its graph and the lines not sent in a full chunk.
 */
export interface WireAnalysis extends Omit<DocumentAnalysis, 'document' | 'partial'> {
  partial: PlainTerm[];
  sink: { finalUrl: string; value: string; lines: number } | null;
}

export type FromWorker =
  | { t: 'ready' }
  | { t: 'ask'; id: number; key: number; req: number; q: Question }
  | { t: 'done'; id: number; analysis: WireAnalysis }
  | { t: 'failed'; id: number; code: string; message: string };

/** A fetch result rebuilt in the worker from its wire form (redirects and timing are the main thread's business). */
export function fromWire(w: WireResult): FetchResult {
  const body = Buffer.from(w.body.buffer, w.body.byteOffset, w.body.byteLength);
  const headers: Record<string, string> = w.link === undefined ? {} : { link: w.link };
  return { kind: 'ok', url: w.url, finalUrl: w.finalUrl, redirects: [], ms: 0, status: w.status, contentType: w.contentType, headers, body, charset: w.charset };
}

const factory = new DataFactory();

/** A failed document's partial quads as they cross between threads: terms as plain data (n3's keep theirs behind getters). */
export interface PlainTerm {
  termType: Term['termType'];
  value: string;
  language?: string;
  direction?: string;
  datatype?: PlainTerm;
  subject?: PlainTerm;
  predicate?: PlainTerm;
  object?: PlainTerm;
  graph?: PlainTerm;
}

/** `quads` as plain data a message copies whole (in the worker, before they leave). */
export function toPlainQuads(quads: readonly Quad[]): PlainTerm[] {
  return quads.map(plain);
}

/** Quads again from their plain data (on the main thread). */
export function fromPlainQuads(quads: readonly PlainTerm[]): Quad[] {
  return quads.map((q) => term(q) as Quad);
}

function plain(t: Term): PlainTerm {
  switch (t.termType) {
    case 'Literal': {
      const dir = (t as Literal & { direction?: string }).direction;
      return { termType: 'Literal', value: t.value, language: t.language, ...(dir ? { direction: dir } : {}), datatype: plain(t.datatype) };
    }
    case 'Quad':
      return { termType: 'Quad', value: '', subject: plain(t.subject), predicate: plain(t.predicate), object: plain(t.object), graph: plain(t.graph) };
    default:
      return { termType: t.termType, value: t.value };
  }
}

function term(p: PlainTerm): Term {
  switch (p.termType) {
    case 'NamedNode':
      return factory.namedNode(p.value);
    case 'BlankNode':
      return factory.blankNode(p.value);
    case 'Variable':
      return factory.variable(p.value);
    case 'DefaultGraph':
      return factory.defaultGraph();
    case 'Literal': {
      const language = p.language ?? '';
      if (language !== '') return factory.literal(p.value, p.direction ? { language, direction: p.direction as 'ltr' | 'rtl' } : language);
      return factory.literal(p.value, factory.namedNode(p.datatype?.value ?? 'http://www.w3.org/2001/XMLSchema#string'));
    }
    default:
      return factory.quad(term(p.subject as PlainTerm) as Quad['subject'], term(p.predicate as PlainTerm) as Quad['predicate'], term(p.object as PlainTerm) as Quad['object'], term(p.graph as PlainTerm) as Quad['graph']);
  }
}
