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

/** The last URL split and its parts: NF, the link features and the similarity keys of one link ask in turn. */
let lastUrl: string | null = null;
let lastParts: UrlParts | null = null;

/**
 * Splits an absolute URL into its parts. Never throws: an unparsable URL yields empty parts. The parts are read-only
 * and shared: asked twice in a row for the same URL (the filters, then the link features), the URL is parsed once.
 */
export function parseUrlParts(url: string): UrlParts {
  if (url === lastUrl && lastParts !== null) return lastParts;
  const parts = splitUrl(url);
  lastUrl = url;
  lastParts = parts;
  return parts;
}

function splitUrl(url: string): UrlParts {
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

/** Extension of a file name: text after the last dot, lower case; null for none, a leading-dot name or a trailing dot. */
export function extensionOfSegment(segment: string | undefined): string | null {
  if (segment === undefined) return null;
  const dot = segment.lastIndexOf('.');
  if (dot <= 0 || dot === segment.length - 1) return null;
  const ext = segment.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]+$/.test(ext) ? ext : null;
}
