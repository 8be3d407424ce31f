// **runMinimalLoop** is the practical throughput limit: undici GET through the proxy, parse5's tokenizer for links,
// an in-memory FIFO queue and a Set — no robots, no store, no scoring. Same scope rule as rdfscout (thesis §11).
// The cost-floor contestants (floor-loop.ts) are this loop with a `PageHook`: the loop stays one.
import { type Token, Tokenizer, type TokenHandler, TokenizerMode } from 'parse5';
import { ProxyAgent, request } from 'undici';
import { pldOf } from '../../src/links/index.ts';
import { feedScan, type PageScan } from '../../src/links/page-scan.ts';

/** What one benchmark contestant reports. */
export interface LoopResult {
  pages: number;
  byStatus: Record<string, number>;
  bytes: number;
}

const LINK_ATTR: Record<string, string> = { a: 'href', link: 'href', area: 'href', iframe: 'src', frame: 'src' };
const RAW_TEXT: Record<string, number> = {
  script: TokenizerMode.SCRIPT_DATA,
  style: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  textarea: TokenizerMode.RCDATA,
  title: TokenizerMode.RCDATA,
};

/** Adds the absolute http(s) URL (no fragment) of the link `token` is, if any. */
function pushLink(token: Token.TagToken, base: string, out: string[]): void {
  const attr = LINK_ATTR[token.tagName];
  if (attr === undefined) return;
  for (const a of token.attrs) {
    if (a.name !== attr) continue;
    const u = URL.parse(a.value.trim(), base);
    if (u !== null && (u.protocol === 'http:' || u.protocol === 'https:')) {
      u.hash = '';
      out.push(u.href);
    }
    return;
  }
}

/**
 * Absolute http(s) URLs (no fragment) of the links in `html`, resolved against `base`. With `scan`, the same pass
 * feeds it (the page's RDF scripts, `<base>`, RDFa/Microdata hints: as rdfscout's link extractor does) and
 * reads the page in the scan's tokenizer states.
 */
function linksIn(html: string, base: string, scan?: PageScan): string[] {
  if (scan !== undefined) return linksAndScan(html, base, scan);
  const out: string[] = [];
  const handler: TokenHandler = {
    onStartTag(token: Token.TagToken) {
      pushLink(token, base, out);
      const mode = RAW_TEXT[token.tagName];
      if (mode !== undefined && !token.selfClosing) tokenizer.state = mode as typeof tokenizer.state;
    },
    onEndTag() {},
    onCharacter() {},
    onWhitespaceCharacter() {},
    onNullCharacter() {},
    onComment() {},
    onDoctype() {},
    onEof() {},
  };
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: false }, handler);
  tokenizer.write(html, true);
  return out;
}

/** {@link linksIn} feeding `scan` from the same tokenizer pass (src/links/page-scan.ts's `feedScan`, plus the links). */
function linksAndScan(html: string, base: string, scan: PageScan): string[] {
  const out: string[] = [];
  feedScan(html, scan, (token) => pushLink(token, base, out));
  return out;
}

/** One fetched response, as a {@link PageHook} sees it. */
export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** The scan `PageHook.scanFor` gave for this HTML page, filled by the link pass; undefined otherwise. */
  scan: PageScan | undefined;
  /** Every link the page gave (HTML links and a redirect's target), seen or not, in scope or not. */
  links: readonly string[];
}

/** Work added to every page of the loop (the cost-floor stages, floor-loop.ts). */
export interface PageHook {
  /** Accept header (default: HTML first, the loop's own). */
  accept?: string;
  /** A scan for the link pass to fill, for an HTML page that needs one (`pageScanFor`). */
  scanFor?(html: string): PageScan | undefined;
  /** Called after the page's links are read and before they are queued; the page counts as done when it resolves. */
  page(page: FetchedPage): Promise<void>;
}

const LOOP_ACCEPT = 'text/html,application/rdf+xml;q=0.9,*/*;q=0.1';

/** What the loop crawls. */
export interface LoopOptions {
  seeds: string[];
  proxy: string;
  pages: number;
  concurrency: number;
  /**
   * Replay: fetch exactly these URLs, in this order (another crawl's requests), instead of the links found. The links
   * are still read and judged as new or seen, in scope or not, as the loop does, but none is queued.
   */
  urls?: readonly string[];
}

/**
 * Crawls breadth-first from `seeds` through `proxy` with `concurrency` workers until `pages` URLs are fetched.
 * `hook`: more work per page (see {@link PageHook}); without it, the minimal loop.
 */
export async function runMinimalLoop(opts: LoopOptions, hook?: PageHook): Promise<LoopResult> {
  const accept = hook?.accept ?? LOOP_ACCEPT;
  let hookError: unknown = null;
  const dispatcher = new ProxyAgent({ uri: opts.proxy, proxyTunnel: false });
  const seedPlds = new Set(opts.seeds.map(pldOf));
  const replay = opts.urls !== undefined;
  const queue: { url: string; pld: string }[] = (opts.urls ?? opts.seeds).map((url) => ({ url, pld: pldOf(url) }));
  const seen = new Set(opts.urls ?? opts.seeds);
  const byStatus: Record<string, number> = {};
  let head = 0;
  let started = 0;
  let bytes = 0;
  let active = 0;
  const waiting: (() => void)[] = [];
  const worker = async (): Promise<void> => {
    for (;;) {
      if (started >= opts.pages) return;
      if (head >= queue.length) {
        if (active === 0) return; // nothing queued, nothing in flight that could add more
        await new Promise<void>((r) => waiting.push(r));
        continue;
      }
      const item = queue[head++] as { url: string; pld: string };
      started++;
      active++;
      try {
        const res = await request(item.url, { dispatcher, headers: { accept } });
        const body = await res.body.text();
        bytes += body.length;
        byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
        const type = String(res.headers['content-type'] ?? '');
        const location = res.headers.location;
        const scan = hook?.scanFor !== undefined && type.includes('html') ? hook.scanFor(body) : undefined;
        const found = type.includes('html') ? linksIn(body, item.url, scan) : [];
        if (typeof location === 'string') found.push(new URL(location, item.url).href);
        if (hook !== undefined) {
          try {
            await hook.page({ url: item.url, status: res.statusCode, contentType: type, body, scan, links: found });
          } catch (err) {
            hookError ??= err; // the stage's own failure (a store write) is not a fetch failure: it fails the run
          }
        }
        for (const url of found) {
          if (seen.has(url)) continue;
          const pld = pldOf(url);
          if (!seedPlds.has(pld) && !seedPlds.has(item.pld)) continue; // thesis §11: one hop out of the seed PLDs
          seen.add(url);
          if (!replay) queue.push({ url, pld });
        }
      } catch {
        byStatus.failed = (byStatus.failed ?? 0) + 1;
      } finally {
        active--;
        for (const w of waiting.splice(0)) w(); // new links may be queued, or the crawl is over
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  await dispatcher.close();
  if (hookError !== null) throw hookError;
  return { pages: started, byStatus, bytes };
}
