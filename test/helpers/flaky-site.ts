// **FlakySite**: the outage set-up of the retry and network-pause tests, a site on a fixed 127.0.0.1 port that goes
// down (connections refused, open ones reset) and comes back on the same port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** `pages` Turtle documents `/d0.ttl`… linked from `/` (robots.txt: 404), served until {@link down}, again after {@link up}. */
export class FlakySite {
  readonly pages: number;
  server: Server | null = null;
  /** 0 until the first {@link up}, then the same port every time. */
  port = 0;
  readonly sockets = new Set<Socket>();
  /** Paths whose next request gets its socket destroyed (a connection reset), once each. */
  readonly resetOnce = new Set<string>();
  /** Requests answered (robots.txt included). */
  served = 0;

  constructor(pages: number) {
    this.pages = pages;
  }

  async up(): Promise<void> {
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      if (this.resetOnce.delete(path)) {
        req.socket.destroy();
        return;
      }
      this.served += 1;
      if (path === '/robots.txt') return res.writeHead(404).end();
      if (path === '/') {
        const links = Array.from({ length: this.pages }, (_, i) => `<a href="/d${i}.ttl">d${i}</a>`).join(' ');
        return res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
      }
      const m = /^\/d(\d+)\.ttl$/.exec(path);
      if (m) return res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://x.example/${m[1]}> <http://x.example/p> "${m[1]}" .\n`);
      res.writeHead(404).end();
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and resets every open connection: from now on connections are refused. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }
}
