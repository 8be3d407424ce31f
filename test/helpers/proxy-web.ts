// A small multi-host web behind one HTTP forward proxy on 127.0.0.1: absolute URL → response, for crawl tests.
import { absoluteTarget, startHttpServer, type TestServer } from './http-server.ts';

/** One resource of the web; `status` defaults to 200, a missing URL answers 404 (robots.txt too: allow all). */
export interface WebPage {
  type: string;
  body: string;
  status?: number;
  headers?: Record<string, string>;
}

export interface ProxyWeb {
  /** The proxy's origin, for the crawler's `proxy` option. */
  proxy: string;
  server: TestServer;
  /** Absolute URLs requested (robots.txt included), in order. */
  fetched(): string[];
  close(): Promise<void>;
}

/** An HTML page whose body is a list of links. */
export function linkPage(title: string, hrefs: readonly string[]): WebPage {
  const items = hrefs.map((h) => `<li><a href="${h}">${h}</a></li>`).join('');
  return { type: 'text/html; charset=utf-8', body: `<!doctype html><html><head><title>${title}</title></head><body><ul>${items}</ul></body></html>` };
}

/** A one-triple Turtle document about `subject`. */
export function turtle(subject: string): WebPage {
  return { type: 'text/turtle', body: `<${subject}> <http://purl.org/dc/terms/title> "${subject}" .\n` };
}

/** Serves `pages` (keyed by absolute URL) to a crawler that uses the returned proxy; every other URL is 404. */
export async function startProxyWeb(pages: Record<string, WebPage>): Promise<ProxyWeb> {
  const server = await startHttpServer((req, res) => {
    const target = absoluteTarget(req);
    const page = target === null ? undefined : pages[target.href];
    if (page === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(page.status ?? 200, { 'content-type': page.type, ...(page.headers ?? {}) }).end(page.body);
  });
  return {
    proxy: server.origin,
    server,
    fetched: () => server.requests.map((r) => r.url),
    close: () => server.close(),
  };
}
