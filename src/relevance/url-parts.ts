// **URL parts** the relevance rules compare: host, path segments (file name included), query, extension (thesis §3, §5).

/** The components of a URL as thesis §3 and §5 use them. */
export interface UrlParts {
  /** Lower-case host with port when not the default, e.g. `example.org:8080`; '' for an unparsable URL. */
  readonly host: string;
  /** Non-empty path segments, file name included, percent-decoding left as is (`/a/b/c.html` → `['a','b','c.html']`). Empty for the null path `/`. */
  readonly segments: readonly string[];
  /** The query without `?`; null when absent or empty. */
  readonly query: string | null;
  /** File extension of the last segment, lower case without the dot; null when none. */
  readonly extension: string | null;
}

/**
 * A cache of one entry: the last URL split and its parts. NF, the link features and the similarity keys ask for the
 * same link's URL in turn, so most asks hit it. It is module state on purpose and changes no answer: the parts are a
 * function of the URL alone, and frozen, so a caller cannot alter what the next caller is handed.
 */
const lastSplit: { url: string | null; parts: UrlParts | null } = { url: null, parts: null };

/**
 * Splits an absolute URL into its parts. Never throws: an unparsable URL yields empty parts. The parts are frozen and
 * shared: asked twice in a row for the same URL, the URL is parsed once (see `lastSplit`).
 */
export function parseUrlParts(url: string): UrlParts {
  if (url === lastSplit.url && lastSplit.parts !== null) return lastSplit.parts;
  const parts = splitUrl(url); // a new object each time: frozen in place
  Object.freeze(parts.segments);
  Object.freeze(parts);
  lastSplit.url = url;
  lastSplit.parts = parts;
  return parts;
}

function splitUrl(url: string): UrlParts {
  const plain = splitPlainUrl(url);
  if (plain !== null) return plain;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { host: '', segments: [], query: null, extension: null };
  }
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  const query = parsed.search.length > 1 ? parsed.search.slice(1) : null;
  // A trailing slash means a directory: no file name, hence no extension.
  const last = parsed.pathname.endsWith('/') ? undefined : segments.at(-1);
  return { host: parsed.host.toLowerCase(), segments, query, extension: extensionOfSegment(last) };
}

/**
 * {@link splitUrl} for a URL that is plainly an http(s) URL a WHATWG URL parser takes as it is, read from the string:
 * every link of every page is split (NF, the link features, the similarity keys), and a URL parse per link was 3% of
 * a breadth-first crawl's CPU. Null for anything else (a port, user info, IP addresses, punycode, other
 * characters, `\`, dot segments, `%2e`), which is parsed; the tests compare both on generated URLs.
 */
export function splitPlainUrl(url: string): UrlParts | null {
  const segments: string[] = [];
  const scan = scanPlainUrl(url, segments);
  if (scan === null) return null;
  const { start, hostEnd, queryStart, end, directory } = scan;
  const query = queryStart >= 0 && end > queryStart ? url.slice(queryStart, end) : null;
  // A trailing slash (or no path) means a directory: no file name, hence no extension.
  const last = directory ? undefined : segments.at(-1);
  return { host: url.slice(start, hostEnd).toLowerCase(), segments, query, extension: extensionOfSegment(last) };
}

/**
 * `parseUrlParts(url).extension` without the other parts: NF asks it of every link a page has, and a bfs crawl judges
 * no further the links its frontier ignores. A plain URL (see {@link splitPlainUrl}) is read from the string with no
 * segment list, host or parts object made; any other goes through `parseUrlParts`.
 */
export function extensionOfUrl(url: string): string | null {
  if (url === lastSplit.url && lastSplit.parts !== null) return lastSplit.parts.extension;
  const scan = scanPlainUrl(url, null);
  if (scan === null) return parseUrlParts(url).extension;
  if (scan.directory) return null;
  // The last segment is non-empty and ends at pathEnd: extensionOfSegment on it, read in place.
  const dot = url.lastIndexOf('.', scan.pathEnd - 1);
  if (dot <= scan.lastSegmentStart || dot === scan.pathEnd - 1) return null;
  const ext = url.slice(dot + 1, scan.pathEnd).toLowerCase();
  return /^[a-z0-9]+$/.test(ext) ? ext : null;
}

/**
 * For a URL that {@link splitPlainUrl} reads from the string (the same test), its WHATWG `host` (lower case),
 * `pathname` (`/` when it has none) and whether its `search` is not empty, read from the string; null for any other
 * URL, which the caller parses. `patternOf` asks for every link an fc-r+hr crawl judges: a URL parse each was 2-3%
 * of its main thread.
 */
export function plainUrlPath(url: string): { host: string; path: string; hasQuery: boolean } | null {
  const scan = scanPlainUrl(url, null);
  if (scan === null) return null;
  const { start, hostEnd, pathEnd, queryStart, end } = scan;
  const path = pathEnd === hostEnd ? '/' : url.slice(hostEnd, pathEnd);
  return { host: url.slice(start, hostEnd).toLowerCase(), path, hasQuery: queryStart >= 0 && end > queryStart };
}

/** Where the parts of a plain URL begin and end (see {@link splitPlainUrl}); `queryStart` is -1 with no `?`. */
interface PlainScan {
  start: number;
  hostEnd: number;
  pathEnd: number;
  queryStart: number;
  /** Where the query ends: the `#` or the end of the URL. */
  end: number;
  /** No file name: no path, or a path ending in `/`. */
  directory: boolean;
  /** Where the last path segment starts (after its `/`); `hostEnd` with no path. */
  lastSegmentStart: number;
}

/**
 * Reads a URL that needs no parse (the test {@link splitPlainUrl} describes) from the string, pushing its non-empty
 * path segments into `segments` when given; null for any other URL.
 */
function scanPlainUrl(url: string, segments: string[] | null): PlainScan | null {
  const start = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  const hostEnd = start < 0 ? -1 : plainHostEnd(url, start);
  if (hostEnd < 0) return null;
  let i = hostEnd;
  let directory = true; // no path is `/`
  let segmentStart = hostEnd;
  if (url.charCodeAt(i) === 47) {
    segmentStart = i + 1;
    for (i++; ; i++) {
      const c = i === url.length ? 35 : url.charCodeAt(i); // the end closes the path like a `#`
      if (c === 47 || c === 63 || c === 35) {
        const n = i - segmentStart;
        if ((n === 1 || n === 2) && url.charCodeAt(segmentStart) === 46 && url.charCodeAt(i - 1) === 46) return null; // `.`, `..`
        if (segments !== null && n > 0) segments.push(url.slice(segmentStart, i));
        if (c !== 47) {
          directory = n === 0;
          break;
        }
        segmentStart = i + 1;
      } else if (c >= 128 || PLAIN_CHAR[c] === 0) {
        return null;
      } else if (c === 37 && url.charCodeAt(i + 1) === 50 && (url.charCodeAt(i + 2) | 32) === 101) {
        return null; // `%2e`: maybe a dot segment
      }
    }
  }
  const pathEnd = i;
  let queryStart = -1;
  if (url.charCodeAt(i) === 63) {
    queryStart = i + 1;
    for (i++; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 35) break;
      if (c >= 128 || (PLAIN_CHAR[c] === 0 && c !== 63)) return null;
    }
  }
  return { start, hostEnd, pathEnd, queryStart, end: i, directory, lastSegmentStart: segmentStart };
}

/**
 * Where the host starting at `start` ends (its `/`, `?` or `#`, or the end), if it is a plain host name of letters,
 * digits, dots and hyphens whose last label starts with a letter (not an IPv4 address, no trailing dot), without
 * punycode-like `??--` labels, followed by no port or user info; else -1.
 */
function plainHostEnd(url: string, start: number): number {
  let i = start;
  let labelStart = start;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 46) labelStart = i + 1;
    else if (c === 45) {
      if (i === labelStart + 2 && url.charCodeAt(i + 1) === 45) return -1; // `xn--`: punycode rules
    } else if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) break;
  }
  if (i === start || labelStart === i) return -1; // no host, or `a.b.`
  const first = url.charCodeAt(labelStart) | 32;
  if (!(first >= 97 && first <= 122)) return -1; // maybe an IPv4 address
  const c = url.charCodeAt(i);
  return i === url.length || c === 47 || c === 63 || c === 35 ? i : -1;
}

/**
 * Characters a WHATWG URL parser leaves unchanged in an http(s) path and query (ASCII letters, digits and
 * `-._~!$&()*+,;=:@%/`; `'` is escaped in a query, `?` is kept there); a URL with any other (space, `'`, `\`, `|`,
 * `[`, non-ASCII, …) is parsed.
 */
const PLAIN_CHAR = Uint8Array.from({ length: 128 }, (_, c) => (/[A-Za-z0-9\-._~!$&()*+,;=:@%/]/.test(String.fromCharCode(c)) ? 1 : 0));

/** Extension of a file name: text after the last dot, lower case; null for none, a leading-dot name or a trailing dot. */
export function extensionOfSegment(segment: string | undefined): string | null {
  if (segment === undefined) return null;
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || dot === segment.length - 1) return null;
  const ext = segment.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]+$/.test(ext) ? ext : null;
}
