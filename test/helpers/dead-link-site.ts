// A small Linked-Data site on 127.0.0.1 whose pages also link origins where nothing answers (dead hosts), for the
// outage-versus-dead-origin tests: 21 Turtle documents reachable from `/` through three HTML pages.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** RDF documents the site serves (every one reachable from `/`). */
export const SITE_RDF_DOCS = 21;

export interface DeadLinkSite {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** Requests received per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts the site. `deadLinks(port)` gives the dead URLs each HTML page links besides its 7 documents (a page's
 * index `i` is passed, so that pages link different dead URLs).
 */
export async function startDeadLinkSite(deadLinks: (port: number, page: number) => string[]): Promise<DeadLinkSite> {
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  let port = 0;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${body}</body></html>`);
    if (path === '/') return html([0, 1, 2].map((i) => `<a href="/p${i}.html">page ${i}</a>`).join(' '));
    const p = /^\/p(\d)\.html$/.exec(path);
    if (p) {
      const i = Number(p[1]);
      const docs = Array.from({ length: 7 }, (_, k) => `<a href="/d${i * 7 + k}.ttl">d${i * 7 + k}</a>`);
      const dead = deadLinks(port, i).map((u, k) => `<a href="${u}">gone ${k}</a>`);
      return html([...docs, ...dead].join(' '));
    }
    const d = /^\/d(\d+)\.ttl$/.exec(path);
    if (d && Number(d[1]) < SITE_RDF_DOCS) {
      return res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://x.example/${d[1]}> <http://x.example/p> "${d[1]}" .\n`);
    }
    res.writeHead(404).end();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
