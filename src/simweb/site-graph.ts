// **SiteBuilder** assembles one simulated site's documents and links, then derives depths and labels (thesis §2).
import type { CalendarSpec, DocKind, Label, LinkStyleCode, RdfFormat, RobotsSpec, SimDoc, Vocab } from './types.ts';
import { LinkStyle } from './types.ts';

const HTML = 'text/html; charset=utf-8';

/** Content-Type of each RDF serialisation. */
const RDF_CONTENT_TYPES: Readonly<Record<RdfFormat, string>> = {
  rdfxml: 'application/rdf+xml',
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  jsonld: 'application/ld+json',
};

const BINARY_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  mp3: 'audio/mpeg',
  bib: 'text/plain; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** Decodes an encoded link into its target document id. */
export function linkTarget(encoded: number): number {
  return Math.floor(encoded / 16);
}

/** Decodes an encoded link into its style code. */
export function linkStyle(encoded: number): LinkStyleCode {
  return (encoded % 16) as LinkStyleCode;
}

/** Builds the documents of one site. Document 0 is the start page. */
export class SiteBuilder {
  readonly docs: SimDoc[] = [];
  readonly byPath = new Map<string, number>();
  readonly robots: RobotsSpec = { disallow: [], sitemap: false };
  calendar: CalendarSpec | undefined;

  #add(path: string, kind: DocKind, status: number, contentType: string, extra: Partial<SimDoc> = {}): number {
    const existing = this.byPath.get(path);
    if (existing !== undefined) throw new Error(`simweb: duplicate path ${path}`);
    const id = this.docs.length;
    this.docs.push({ id, path, kind, status, contentType, links: [], external: 0, depth: -1, label: 'N', ...extra });
    this.byPath.set(path, id);
    return id;
  }

  /** Whether a path is taken. */
  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** An HTML page (200). */
  html(path: string, extra: Partial<SimDoc> = {}): number {
    return this.#add(path, 'html', 200, HTML, extra);
  }

  /** An RDF document (200) with `triples` triples; `contentType` overrides the format's (deri serves `application/xml`). */
  rdf(path: string, format: RdfFormat, vocab: Vocab, triples: number, contentType?: string): number {
    return this.#add(path, 'rdf', 200, contentType ?? RDF_CONTENT_TYPES[format], { format, vocab, triples });
  }

  /** A non-HTML, non-RDF file; the type comes from the path's extension. */
  binary(path: string): number {
    const ext = /\.([a-z0-9]+)$/.exec(path)?.[1] ?? 'bin';
    return this.#add(path, 'binary', 200, BINARY_TYPES[ext] ?? 'application/octet-stream');
  }

  /** Plain XML (RSS, API output) that is not RDF. */
  xml(path: string): number {
    return this.#add(path, 'xml', 200, 'application/xml');
  }

  /** Plain JSON that is not JSON-LD. */
  json(path: string): number {
    return this.#add(path, 'json', 200, 'application/json');
  }

  /** The sitemap (`/sitemap.xml`) listing the given documents' URLs. */
  sitemap(path: string): number {
    return this.#add(path, 'sitemap', 200, 'application/xml');
  }

  /** A permanent (301) or other redirect to `target`. */
  redirect(path: string, target: number, status = 301): number {
    return this.#add(path, 'redirect', status, HTML, { target });
  }

  /** A content-negotiated resource URI: 303 to `rdf` when RDF is acceptable, else to `html`. */
  conneg(path: string, rdf: number, html: number): number {
    return this.#add(path, 'conneg', 303, HTML, { target: rdf, htmlTarget: html });
  }

  /** A URL that always answers with an error status (404, 410, 500, 503). */
  error(path: string, status: number): number {
    return this.#add(path, 'error', status, HTML);
  }

  /** A duplicate of `of` under another path: same kind, body and links. */
  duplicate(of: number, path: string): number {
    const o = this.docs[of] as SimDoc;
    const extra: Partial<SimDoc> = { links: o.links, external: o.external, dupOf: o.dupOf ?? of };
    if (o.target !== undefined) extra.target = o.target;
    if (o.htmlTarget !== undefined) extra.htmlTarget = o.htmlTarget;
    if (o.format !== undefined) extra.format = o.format;
    if (o.vocab !== undefined) extra.vocab = o.vocab;
    if (o.triples !== undefined) extra.triples = o.triples;
    if (o.embed !== undefined) extra.embed = o.embed;
    return this.#add(path, o.kind, o.status, o.contentType, extra);
  }

  /** Adds a link from page `from` to document `to`. */
  link(from: number, to: number, style: LinkStyleCode = LinkStyle.plain): void {
    (this.docs[from] as SimDoc).links.push(to * 16 + style);
  }

  /** Finishes the site: BFS depths from document 0 and thesis §2 labels. */
  finish(): { docs: SimDoc[]; byPath: Map<string, number>; robots: RobotsSpec; calendar: CalendarSpec | undefined } {
    computeDepths(this.docs);
    computeLabels(this.docs);
    return { docs: this.docs, byPath: this.byPath, robots: this.robots, calendar: this.calendar };
  }
}

/** Internal successors of a document as served: HTML links, redirect and content-negotiation targets. */
function successors(doc: SimDoc): number[] {
  if (doc.kind === 'html' && doc.status === 200) return doc.links.map(linkTarget);
  if (doc.kind === 'redirect') return doc.target === undefined ? [] : [doc.target];
  if (doc.kind === 'conneg') return [doc.target, doc.htmlTarget].filter((t): t is number => t !== undefined);
  return [];
}

function computeDepths(docs: SimDoc[]): void {
  if (docs.length === 0) return;
  const queue = new Int32Array(docs.length);
  let head = 0;
  let tail = 0;
  (docs[0] as SimDoc).depth = 0;
  queue[tail++] = 0;
  while (head < tail) {
    const doc = docs[queue[head++] as number] as SimDoc;
    for (const t of successors(doc)) {
      const next = docs[t] as SimDoc;
      if (next.depth < 0) {
        next.depth = doc.depth + 1;
        queue[tail++] = t;
      }
    }
  }
}

/** The label a URL ends up with after redirects (thesis §2 applied to the final document). */
function resolveLabel(docs: SimDoc[], id: number, seen = 0): Label | 'html' {
  const doc = docs[id] as SimDoc;
  if (doc.kind === 'rdf' && doc.status === 200) return 'R';
  if ((doc.kind === 'redirect' || doc.kind === 'conneg') && doc.target !== undefined && seen < 10) {
    return resolveLabel(docs, doc.target, seen + 1);
  }
  if (doc.kind === 'html' && doc.status === 200) return 'html';
  return 'N';
}

function computeLabels(docs: SimDoc[]): void {
  const isR = new Uint8Array(docs.length);
  for (const doc of docs) if (resolveLabel(docs, doc.id) === 'R') isR[doc.id] = 1;
  for (const doc of docs) {
    const resolved = resolveLabel(docs, doc.id);
    if (resolved !== 'html') {
      doc.label = resolved;
      continue;
    }
    // A redirect to an HTML page takes that page's label, computed from the page's own links.
    const page = docs[doc.kind === 'html' ? doc.id : finalId(docs, doc.id)] as SimDoc;
    doc.label = page.links.some((l) => isR[linkTarget(l)] === 1) ? 'HR' : 'H';
  }
}

function finalId(docs: SimDoc[], id: number): number {
  let cur = id;
  for (let i = 0; i < 10; i++) {
    const d = docs[cur] as SimDoc;
    if ((d.kind !== 'redirect' && d.kind !== 'conneg') || d.target === undefined) return cur;
    cur = d.target;
  }
  return cur;
}
