// **runMinimalLoop** is the practical throughput limit: undici GET through the proxy, parse5's tokenizer for links,
// an in-memory FIFO queue and a Set — no robots, no store, no scoring. Same scope rule as rdfscout (thesis §11).
import { type Token, Tokenizer, type TokenHandler, TokenizerMode } from 'parse5';
import { ProxyAgent, request } from 'undici';
import { pldOf } from '../../src/links/index.ts';

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

/** Absolute http(s) URLs (no fragment) of the links in `html`, resolved against `base`. */
export function linksIn(html: string, base: string): string[] {
  const out: string[] = [];
  const handler: TokenHandler = {
    onStartTag(token: Token.TagToken) {
      const attr = LINK_ATTR[token.tagName];
      if (attr !== undefined) {
        for (const a of token.attrs) {
          if (a.name !== attr) continue;
          const u = URL.parse(a.value.trim(), base);
          if (u !== null && (u.protocol === 'http:' || u.protocol === 'https:')) {
            u.hash = '';
            out.push(u.href);
          }
          break;
        }
      }
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

/** Crawls breadth-first from `seeds` through `proxy` with `concurrency` workers until `pages` URLs are fetched. */
export async function runMinimalLoop(opts: { seeds: string[]; proxy: string; pages: number; concurrency: number }): Promise<LoopResult> {
  const dispatcher = new ProxyAgent({ uri: opts.proxy, proxyTunnel: false });
  const seedPlds = new Set(opts.seeds.map(pldOf));
  const queue: { url: string; pld: string }[] = opts.seeds.map((url) => ({ url, pld: pldOf(url) }));
  const seen = new Set(opts.seeds);
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
        const res = await request(item.url, { dispatcher, headers: { accept: 'text/html,application/rdf+xml;q=0.9,*/*;q=0.1' } });
        const body = await res.body.text();
        bytes += body.length;
        byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
        const type = String(res.headers['content-type'] ?? '');
        const location = res.headers.location;
        const found = type.includes('html') ? linksIn(body, item.url) : [];
        if (typeof location === 'string') found.push(new URL(location, item.url).href);
        for (const url of found) {
          if (seen.has(url)) continue;
          const pld = pldOf(url);
          if (!seedPlds.has(pld) && !seedPlds.has(item.pld)) continue; // thesis §11: one hop out of the seed PLDs
          seen.add(url);
          queue.push({ url, pld });
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
  return { pages: started, byStatus, bytes };
}
