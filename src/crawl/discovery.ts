// **Discovery beyond the thesis**: sitemaps, /.well-known/void, VoID dataset links and HTTP Link headers.
import type { Quad } from '@rdfjs/types';
import type { LinkFeatures } from '../links/types.ts';
import { normalizeUrl } from '../links/index.ts';

const VOID = 'http://rdfs.org/ns/void#';
const VOID_DATA_DUMP = `${VOID}dataDump`;
const VOID_SPARQL_ENDPOINT = `${VOID}sparqlEndpoint`;

/** `rel` of a link to a sitemap file (RFC 8288 registered relation name); URLs listed in one get tag 'sitemap'. */
export const SITEMAP_REL = 'sitemap';
/** `rel` of the /.well-known/void probe (RFC 8615 well-known location of a VoID description, W3C VoID §6.2). */
const VOID_REL = 'void';

function link(url: string, tag: LinkFeatures['tag'], rel: string, extra: Partial<LinkFeatures> = {}): LinkFeatures {
  return { url, tag, anchor: '', title: '', type: '', rel, context: '', ...extra };
}

/**
 * What to probe at a seed's origin once its robots.txt is known: sitemaps robots.txt names, and, when `probe` is on,
 * `/sitemap.xml` (if robots.txt names none) and `/.well-known/void`.
 */
export function originProbes(seedUrl: string, robotsSitemaps: readonly string[], probe: boolean): LinkFeatures[] {
  const origin = new URL(seedUrl).origin;
  const out: LinkFeatures[] = [];
  for (const s of robotsSitemaps) {
    const n = normalizeUrl(s, origin);
    if (n.ok) out.push(link(n.url, 'seed', SITEMAP_REL));
  }
  if (probe) {
    if (out.length === 0) out.push(link(`${origin}/sitemap.xml`, 'seed', SITEMAP_REL));
    out.push(link(`${origin}/.well-known/void`, 'seed', VOID_REL));
  }
  return out;
}

/** Whether a body is a sitemap or sitemap index (cheap look at its start). */
export function looksLikeSitemap(text: string): boolean {
  return /<(?:[\w.-]+:)?(?:urlset|sitemapindex)\b/i.test(text.slice(0, 4096));
}

/** VoID dataset access points stated in a document (W3C VoID §3.3, §6): data dumps and SPARQL endpoints. */
export function voidAccessPoints(quads: Iterable<Quad>): { dumps: string[]; endpoints: string[] } {
  const collector = new VoidCollector();
  for (const q of quads) collector.add(q);
  return collector.points();
}

/** {@link voidAccessPoints} one quad at a time, as the document is parsed. */
export class VoidCollector {
  readonly #dumps = new Set<string>();
  readonly #endpoints = new Set<string>();

  add(q: Quad): void {
    if (q.object.termType !== 'NamedNode') return;
    if (q.predicate.value === VOID_DATA_DUMP) this.#dumps.add(q.object.value);
    else if (q.predicate.value === VOID_SPARQL_ENDPOINT) this.#endpoints.add(q.object.value);
  }

  points(): { dumps: string[]; endpoints: string[] } {
    return { dumps: [...this.#dumps], endpoints: [...this.#endpoints] };
  }
}

/** Links to data dumps, to be judged like links found in RDF (labelled by extension; thesis §8.2). */
export function dumpLinks(dumps: readonly string[], base: string): LinkFeatures[] {
  const out: LinkFeatures[] = [];
  for (const d of dumps) {
    const n = normalizeUrl(d, base);
    if (n.ok) out.push(link(n.url, 'rdf', VOID_DATA_DUMP));
  }
  return out;
}

/**
 * Parses an HTTP `Link` header (RFC 8288) into links with their `rel`, `type` and `title`, keeping the relations
 * that can lead to data: alternate, describedby, meta, seeAlso, sitemap (others, e.g. preload or stylesheet, are
 * dropped).
 */
export function parseLinkHeader(value: string | undefined, base: string): LinkFeatures[] {
  if (!value) return [];
  const out: LinkFeatures[] = [];
  // <uri>; param=value; param="quoted, with commas", <uri2>; …
  const re = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;
  for (const m of value.matchAll(re)) {
    const params = new Map<string, string>();
    for (const p of (m[2] ?? '').matchAll(/;\s*([^;,=\s]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*))?/g)) {
      const raw = p[2] ?? '';
      params.set((p[1] ?? '').toLowerCase(), raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
    }
    const rel = (params.get('rel') ?? '').toLowerCase();
    if (!/\b(alternate|describedby|meta|seealso|sitemap)\b/.test(rel)) continue;
    const n = normalizeUrl(m[1] ?? '', base);
    if (!n.ok) continue;
    out.push(link(n.url, 'header', rel, { type: params.get('type') ?? '', title: params.get('title') ?? '' }));
  }
  return out;
}
