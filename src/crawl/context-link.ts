// **jsonLdContextLink**: the JSON-LD context a JSON response names in its Link header (JSON-LD 1.1 API §9.4).
import { normaliseMediaType } from '../rdf/sniff.ts';

/** One link of a Link header (RFC 8288): `<uri>` and its parameters (`; name=value` or `; name="quoted"`). */
const LINK_VALUE = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;

/** The link relation of a JSON document's context (JSON-LD 1.1 §6.1 "Interpreting JSON as JSON-LD"). */
export const JSONLD_CONTEXT_REL = 'http://www.w3.org/ns/json-ld#context';

/**
 * The absolute URL of the context named by `Link: <url>; rel="http://www.w3.org/ns/json-ld#context"` on a response
 * of type `application/json` or any `+json` type but `application/ld+json` (whose context Link header is ignored,
 * JSON-LD 1.1 §6.1); null when there is none. When several are given the first counts (the spec makes that an
 * error, "multiple context link headers"; a crawler keeps the document).
 */
export function jsonLdContextLink(contentType: string | null, header: string | undefined, base: string): string | null {
  const type = normaliseMediaType(contentType);
  if (header === undefined || type === null || type === 'application/ld+json') return null;
  if (type !== 'application/json' && !type.endsWith('+json')) return null;
  for (const m of header.matchAll(LINK_VALUE)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(m[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/);
    if (!rels.includes(JSONLD_CONTEXT_REL)) continue;
    try {
      return new URL(m[1] ?? '', base).href;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The JSON-LD alternate of a response that is not JSON: `Link: <url>; rel="alternate"; type="application/ld+json"`
 * (JSON-LD 1.1 API §9.4 LoadDocumentCallback step 2: the loader goes on to that URL); null when there is none.
 */
export function jsonLdAlternateLink(contentType: string | null, header: string | undefined, base: string): string | null {
  const type = normaliseMediaType(contentType);
  if (header === undefined || (type !== null && (type === 'application/json' || type.endsWith('+json')))) return null;
  for (const m of header.matchAll(LINK_VALUE)) {
    const params = m[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(params);
    const linkType = /;\s*type\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(params);
    if (!(rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).includes('alternate')) continue;
    if (normaliseMediaType(linkType?.[1] ?? linkType?.[2] ?? null) !== 'application/ld+json') continue;
    try {
      return new URL(m[1] ?? '', base).href;
    } catch {
      return null;
    }
  }
  return null;
}
