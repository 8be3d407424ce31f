// **normalizeUrl** turns an href into the one absolute URL string the crawler uses as a URL's identity; plus tiny URL helpers.
import { getDomain } from 'tldts';

/**
 * How URLs are normalised.
 * - `standard`: WHATWG URL serialisation (lower-case host, IDN → punycode, dot segments resolved, default port
 *   removed, empty path → `/`), http/https only, fragment dropped.
 * - `beebot`: `standard`, then the WHATWG string lower-cased as a whole and one trailing `/` removed (BeeBot §2,
 *   after Lee & Kim 2005). This CHANGES URL IDENTITY: `http://a.org/Page/` and `http://a.org/page` become the same
 *   URL, and the URL fetched is the lower-cased one (a case-sensitive server may answer 404). Use it only to
 *   reproduce BeeBot; never mix both modes in one crawl.
 */
export type NormalizeMode = 'standard' | 'beebot';

export interface NormalizeOptions {
  /** Default: `standard`. */
  mode?: NormalizeMode;
  /** Longest URL accepted, in characters, after normalisation. Default: 2048. */
  maxLength?: number;
}

/** Result of `normalizeUrl`: the URL, or why the href is not a crawlable URL (BeeBot §2 Bad Links). */
export type NormalizeResult = { ok: true; url: string } | { ok: false; reason: string };

/** Default for `NormalizeOptions.maxLength`. */
const DEFAULT_MAX_URL_LENGTH = 2048;

// A blank-node label as an href: `_:` then a name (Turtle/RDFa syntax), after the whitespace WHATWG strips.
const BNODE_RE = /^[\s\0-\x1f]*_:/;

// A scheme at the start of an href (after the whitespace WHATWG strips), e.g. `javascript:` or `mailto:`.
const SCHEME_RE = /^[\s\0-\x1f]*([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Normalises `href`, resolved against `base` when relative. Reasons when not ok (stable strings):
 * `empty`, `too-long`, `scheme:<name>` (javascript, mailto, data, ftp, …), `blank-node` (`_:b1`), `malformed`, `no-host`.
 */
export function normalizeUrl(href: string, base?: string, opts: NormalizeOptions = {}): NormalizeResult {
  const maxLength = opts.maxLength ?? DEFAULT_MAX_URL_LENGTH;
  // Refuse giant inputs before parsing them (percent-encoding can only make them longer).
  if (href.length > maxLength * 4) return { ok: false, reason: 'too-long' };
  // A blank-node label (`_:b4999`, as RDFa tools write in href) names no document: it is not a URL.
  if (BNODE_RE.test(href)) return { ok: false, reason: 'blank-node' };
  const scheme = SCHEME_RE.exec(href)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return { ok: false, reason: `scheme:${scheme}` };
  if (href.trim() === '' && base === undefined) return { ok: false, reason: 'empty' };
  const parsed = URL.parse(href, base);
  if (parsed === null) return { ok: false, reason: 'malformed' };
  // A relative href against a non-http base (e.g. a `data:` page) ends up with another scheme.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: `scheme:${parsed.protocol.slice(0, -1)}` };
  if (parsed.hostname === '') return { ok: false, reason: 'no-host' };
  // Only an href with a `#` has a fragment to drop (the setter re-serialises the URL: ~a tenth of a link's cost).
  if (href.includes('#')) parsed.hash = '';
  const url = inMode(parsed.href, opts.mode);
  if (url.length > maxLength) return { ok: false, reason: 'too-long' };
  return { ok: true, url };
}

/** A resolved URL as `mode` keeps it: BeeBot's form is lower-cased, one trailing `/` removed (BeeBot §2). */
function inMode(url: string, mode: NormalizeMode | undefined): string {
  if (mode !== 'beebot') return url;
  const lower = url.toLowerCase();
  return lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/**
 * A path-absolute href (`/a/b?c=1&d`, a fragment after it) written with characters the WHATWG parser keeps as they are
 * in a path and a query: no percent sign (no `%2e` dot segment), no backslash, quote, space or other character it
 * would encode or rewrite, and not `//` (a host).
 */
const PLAIN_PATH_RE = /^\/(?![/\\])[A-Za-z0-9\-._~!$&()*+,;=:@/?]*(?:#|$)/;

/**
 * The base's serialisation up to its path (`http://user@host:8080`), for {@link resolvePlainPath}; null when the base
 * is not an http(s) URL with a host.
 */
export function basePrefixOf(base: string): string | null {
  const parsed = URL.parse(base);
  if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return null;
  const href = parsed.href;
  return href.slice(0, href.indexOf('/', parsed.protocol.length + 2));
}

/**
 * What `normalizeUrl(href, base, opts)` gives for a plain path-absolute href ({@link PLAIN_PATH_RE}) without dot
 * segments, made without parsing: the base's prefix ({@link basePrefixOf}) then the href up to its fragment (WHATWG
 * URL §4.4: a path-absolute reference keeps the base's scheme, credentials, host and port). Null for any other href
 * or a result over `maxLength`: ask normalizeUrl. Most links of a page are such hrefs; parsing each cost ~1 µs.
 */
export function resolvePlainPath(href: string, basePrefix: string, opts: NormalizeOptions = {}): string | null {
  const maxLength = opts.maxLength ?? DEFAULT_MAX_URL_LENGTH;
  if (href.length > maxLength * 4 || !PLAIN_PATH_RE.test(href)) return null;
  const hash = href.indexOf('#');
  const main = hash < 0 ? href : href.slice(0, hash);
  const query = main.indexOf('?');
  if ((query < 0 ? main : main.slice(0, query)).includes('/.')) return null; // a dot segment, maybe: the parser decides
  const url = inMode(basePrefix + main, opts.mode);
  return url.length > maxLength ? null : url;
}

/**
 * Whether an absolute IRI is a blank-node label resolved as a relative reference (`http://a.org/doc/_:b4999`, what an
 * RDFa parser makes of `href="_:b4999"`): its last path segment starts with `_:`. Such IRIs name no document.
 */
export function isResolvedBlankNode(iri: string): boolean {
  const q = iri.search(/[?#]/);
  const path = q < 0 ? iri : iri.slice(0, q);
  return path.slice(path.lastIndexOf('/') + 1).startsWith('_:');
}

/**
 * The host name of an absolute URL (lower-case as normalised URLs are; no port, no user info; IPv6 in brackets),
 * by slicing rather than parsing. '' when `url` has no `//` authority.
 */
export function hostOf(url: string): string {
  const start = url.indexOf('//');
  if (start < 0) return '';
  let end = url.length;
  for (let i = start + 2; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  let host = url.slice(start + 2, end);
  const at = host.lastIndexOf('@');
  if (at >= 0) host = host.slice(at + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return (close < 0 ? host : host.slice(0, close + 1)).toLowerCase();
  }
  const colon = host.indexOf(':');
  return (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * The last {@link pldOf} asked and its answer: a link's PLD is asked in turn by the off-site test, the scope and the
 * frontier, and this spares the host slice for the repeats. Module state that changes no answer (a function of the
 * string alone).
 */
const lastPld = { of: '', pld: '' };

const PLD_CACHE_MAX = 50_000;
const pldCache = new Map<string, string>();

/** tldts options of every PLD computed by rdfscout: the whole Public Suffix List, its private section included. */
const PSL_OPTIONS = { allowPrivateDomains: true } as const;

/**
 * The pay-level domain (registrable domain) of a host or absolute URL, by the whole Public Suffix List through tldts,
 * private section included: `www.dbtune.org` → `dbtune.org`, `a.github.io` → `a.github.io` (so
 * `a.github.io` and `b.github.io` are two PLDs). IP addresses, `localhost` and other hosts without one are their
 * own PLD. The one function that computes a PLD in rdfscout; memoised per host in a bounded map.
 */
export function pldOf(hostOrUrl: string): string {
  if (hostOrUrl === lastPld.of) return lastPld.pld;
  const host = hostOrUrl.includes('//') ? hostOf(hostOrUrl) : hostOrUrl.toLowerCase();
  let pld = pldCache.get(host);
  if (pld === undefined) {
    pld = getDomain(host, PSL_OPTIONS) ?? host;
    if (pldCache.size >= PLD_CACHE_MAX) pldCache.clear();
    pldCache.set(host, pld);
  }
  lastPld.of = hostOrUrl;
  lastPld.pld = pld;
  return pld;
}

/**
 * Lower-case file extension of the URL's last path segment (`http://a.org/x/data.RDF?q` → `rdf`), '' when the
 * segment has no dot, ends with one, or the URL has no path. Extensions longer than 10 characters are not
 * extensions (`/v1.2-release-notes` style names) and give ''.
 */
export function extensionOf(url: string): string {
  const auth = url.indexOf('//');
  let pathStart = auth < 0 ? 0 : url.indexOf('/', auth + 2);
  if (pathStart < 0) return '';
  let end = url.length;
  for (let i = pathStart; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  // The authority may itself contain `?`/`#` only after the path start, so `pathStart < end` holds unless no path.
  if (end <= pathStart) return '';
  pathStart = url.lastIndexOf('/', end - 1);
  const dot = url.lastIndexOf('.', end - 1);
  if (dot <= pathStart || dot === end - 1 || end - dot - 1 > 10) return '';
  return url.slice(dot + 1, end).toLowerCase();
}
