// A hostile web server on 127.0.0.1: one path per trap (slow, huge, bombs, loops, lies, broken content, flaky HTTP).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';

/** A running hostile server. `hits(path)` counts requests for a path (query ignored); `hitTimes` their arrival times. */
export interface HostileServer {
  origin: string;
  port: number;
  hits(path: string): number;
  hitTimes(path: string): number[];
  /** Requests whose path starts with `prefix`. */
  hitsUnder(prefix: string): number;
  /** Longest request target the server received (characters). */
  longestTarget(): number;
  close(): Promise<void>;
}

const GOOD_TTL = `@prefix foaf: <http://xmlns.com/foaf/0.1/> .
<#me> a foaf:Person ; foaf:name "Alice" ; foaf:knows <b.rdf#me> .
`;
const GOOD_RDFXML = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <rdf:Description rdf:about="http://example.org/thing"><dc:title>A thing</dc:title><dc:creator>Carol</dc:creator></rdf:Description>
</rdf:RDF>
`;

type Route = (req: IncomingMessage, res: ServerResponse, ctx: Ctx) => void;
interface Ctx {
  origin: string;
  url: URL;
  /** Timers and intervals cleared when the socket closes (a trickling response never outlives its client). */
  onClose(fn: () => void): void;
  /** How many times `path` was asked so far, this request included (for "fail once, then succeed"). */
  count(path: string): number;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** Gzip of 10 MiB of spaces, sent 100 times as a multi-member gzip: ~1 GiB decoded from ~1 MB on the wire. */
let gzipMember: Buffer | undefined;
/** Brotli of 128 MiB of spaces (a few hundred bytes; brotli has no members to repeat), built once, streamed. */
let brotliBomb: Buffer | undefined;

async function buildBrotliBomb(): Promise<Buffer> {
  const enc = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const out: Buffer[] = [];
  enc.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => enc.on('end', resolve));
  const chunk = Buffer.alloc(MB, 0x20);
  for (let i = 0; i < 128; i++) if (!enc.write(chunk)) await new Promise((r) => enc.once('drain', r));
  enc.end();
  await done;
  return Buffer.concat(out);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** Writes `total` bytes of `chunk` repeated, honouring back-pressure; stops when the client goes away. */
function stream(res: ServerResponse, chunk: Buffer, total: number, ctx: Ctx): void {
  let sent = 0;
  let closed = false;
  ctx.onClose(() => {
    closed = true;
  });
  const pump = (): void => {
    while (!closed && sent < total) {
      const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}

/** Writes chunks produced lazily by `next` (null = end) through an optional encoder, with back-pressure. */
function streamLazy(res: ServerResponse, next: () => string | Buffer | null, ctx: Ctx, encoder?: zlib.Gzip): void {
  let closed = false;
  ctx.onClose(() => {
    closed = true;
    encoder?.destroy();
  });
  const sink = encoder ?? res;
  if (encoder) {
    encoder.pipe(res);
  }
  const pump = (): void => {
    for (;;) {
      if (closed) return;
      const piece = next();
      if (piece === null) {
        sink.end();
        return;
      }
      if (!sink.write(piece)) {
        sink.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

function trickle(socket: Socket, text: string, everyMs: number, ctx: Ctx): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    if (i < text.length) socket.write(text[i++] as string);
    else clearInterval(timer);
  }, everyMs);
  ctx.onClose(() => clearInterval(timer));
}

function html(body: string): string {
  return `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
}

const ROUTES: Record<string, Route> = {
  // ── good documents that must survive everything else ──
  '/good/a.ttl': (_q, res) => send(res, 200, 'text/turtle', GOOD_TTL),
  '/good/b.rdf': (_q, res) => send(res, 200, 'application/rdf+xml', GOOD_RDFXML),
  '/good/c.ttl': (_q, res) => send(res, 200, 'text/turtle', '<http://example.org/c> <http://example.org/p> "c" .\n'),
  '/robots.txt': (_q, res) => send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /forbidden/\n'),

  // ── slow servers ──
  '/slow/headers': (req, _res, ctx) => trickle(req.socket, 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-slow: ' + 'a'.repeat(1000), 50, ctx),
  '/slow/body': (req, res, ctx) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body>');
    const timer = setInterval(() => res.write('x'), 50); // a chunk every 50 ms, never ending
    ctx.onClose(() => clearInterval(timer));
    void req;
  },
  '/slow/silent': () => {},

  // ── size ──
  '/size/2gb': (_q, res, ctx) => {
    res.writeHead(200, { 'content-type': 'text/html' }); // chunked: the limit must be found while reading
    stream(res, Buffer.alloc(64 * 1024, 0x61), 2 * GB, ctx);
  },
  '/size/2gb-declared': (_q, res, ctx) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(2 * GB) });
    stream(res, Buffer.alloc(64 * 1024, 0x61), 2 * GB, ctx);
  },
  '/size/gzip-bomb': (_q, res, ctx) => {
    gzipMember ??= zlib.gzipSync(Buffer.alloc(10 * MB, 0x20), { level: 9 });
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    let n = 0;
    streamLazy(res, () => (n++ < 100 ? (gzipMember as Buffer) : null), ctx);
  },
  '/size/brotli-bomb': (_q, res) => send(res, 200, 'text/html', brotliBomb as Buffer, { 'content-encoding': 'br' }),
  '/size/long-line.html': (_q, res, ctx) => {
    // 10 MB on one line: a link at the start, then words, never a newline.
    const head = '<!doctype html><html><body><p><a href="/t/long-line.ttl">data</a> ';
    const total = 10_000_000;
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(total) });
    res.write(head);
    stream(res, Buffer.from('lorem ipsum dolor sit amet '.repeat(1000)), total - head.length, ctx);
  },
  '/size/million-links.html': (_q, res, ctx) => {
    // 1,000,000 links generated as they are sent, gzip-encoded (≈28 MB of HTML in a few MB on the wire).
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    let i = 0;
    const next = (): string | null => {
      if (i === 0) {
        i++;
        return '<!doctype html><html><body><ul>';
      }
      if (i > 1_000_000) return null;
      let chunk = '';
      for (let k = 0; k < 1000 && i <= 1_000_000; k++, i++) chunk += `<li><a href="/m/${i}">link ${i}</a>`;
      return i > 1_000_000 ? `${chunk}</ul></body></html>` : chunk;
    };
    streamLazy(res, next, ctx, zlib.createGzip({ level: 1 }));
  },
  '/size/long-url.html': (_q, res) => send(res, 200, 'text/html', html(`<a href="/long/${'x'.repeat(100_000)}">long</a> <a href="/t/long-url.ttl">ok</a>`)),
  '/size/redirect-long': (_q, res) => send(res, 302, 'text/plain', '', { location: `/long/${'y'.repeat(100_000)}` }),

  // ── loops and traps ──
  '/loop/a': (_q, res) => send(res, 302, 'text/plain', '', { location: '/loop/b' }),
  '/loop/b': (_q, res) => send(res, 302, 'text/plain', '', { location: '/loop/a' }),
  '/loop/self': (_q, res) => send(res, 301, 'text/plain', '', { location: '/loop/self' }),

  // ── lies ──
  '/lie/html-as-rdfxml': (_q, res) => send(res, 200, 'application/rdf+xml', html('<p>Just a page, <a href="/t/lie.ttl">data</a></p>')),
  '/lie/rdf-as-text': (_q, res) => send(res, 200, 'text/plain', GOOD_TTL),
  '/lie/rdf-as-text.ttl': (_q, res) => send(res, 200, 'text/plain', GOOD_TTL),
  '/lie/wrong-charset.ttl': (_q, res) =>
    send(res, 200, 'text/turtle; charset=klingon', Buffer.from('<http://example.org/z> <http://example.org/name> "Zoë" .\n', 'utf8')),
  '/lie/latin1-as-utf8.ttl': (_q, res) =>
    send(res, 200, 'text/turtle; charset=utf-8', Buffer.concat([Buffer.from('<http://example.org/l> <http://example.org/name> "Zo'), Buffer.from([0xeb, 0xff, 0xfe]), Buffer.from('" .\n')])),
  '/lie/bom.ttl': (_q, res) => send(res, 200, 'text/turtle', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD_TTL)])),
  '/lie/truncated-gzip.ttl': (_q, res) => {
    const gz = zlib.gzipSync(Buffer.from(GOOD_TTL.repeat(200)));
    send(res, 200, 'text/turtle', gz.subarray(0, Math.floor(gz.length / 2)), { 'content-encoding': 'gzip' });
  },

  // ── broken content ──
  '/broken/syntax.ttl': (_q, res) =>
    send(res, 200, 'text/turtle', '@prefix ex: <http://example.org/> .\nex:a ex:p ex:b .\nex:c ex:p ex:d .\nex:e ex:p "unterminated .\nex:f ex:p ex:g .\n'),
  '/broken/laughs.rdf': (_q, res) => {
    let dtd = '<!ENTITY lol "lol">';
    for (let i = 1; i <= 9; i++) dtd += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
    send(res, 200, 'application/rdf+xml', `<?xml version="1.0"?><!DOCTYPE rdf:RDF [${dtd}]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
<rdf:Description rdf:about="http://example.org/x"><dc:title>&lol9;</dc:title></rdf:Description></rdf:RDF>`);
  },
  '/broken/xxe.rdf': (_q, res, ctx) =>
    send(res, 200, 'application/rdf+xml', `<?xml version="1.0"?><!DOCTYPE rdf:RDF [<!ENTITY ext SYSTEM "${ctx.origin}/canary/xxe">]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/">
<rdf:Description rdf:about="http://example.org/x"><dc:title>&ext;</dc:title></rdf:Description></rdf:RDF>`),
  '/broken/remote-context.jsonld': (_q, res, ctx) =>
    send(res, 200, 'application/ld+json', JSON.stringify({ '@context': `${ctx.origin}/canary/context.jsonld`, '@id': 'http://example.org/r', name: 'R' })),
  '/broken/unclosed.html': (_q, res) =>
    send(res, 200, 'text/html', '<html><body><div><p><b><i><a href="/t/unclosed-1.ttl">data<div><span><table><tr><td><a href="/t/unclosed-2.ttl">more'),
  '/broken/rdfa.html': (_q, res) =>
    send(
      res,
      200,
      'text/html',
      '<html><body><div vocab="http://schema.org/" typeof="Person" about="http://example.org/dan"><span property="name">Dan<p>unclosed <b property="jobTitle">Crawler</i></div><<div>>',
    ),

  // ── HTTP ──
  '/http/429-once.ttl': (_q, res, ctx) => {
    if (ctx.count('/http/429-once.ttl') === 1) return send(res, 429, 'text/plain', 'slow down', { 'retry-after': '1' });
    send(res, 200, 'text/turtle', '<http://example.org/r429> <http://example.org/p> "after 429" .\n');
  },
  '/http/503-always.ttl': (_q, res) => send(res, 503, 'text/plain', 'down', { 'retry-after': '1' }),
  '/http/reset': (req) => req.socket.destroy(),
  '/http/reset-once.ttl': (req, res, ctx) => {
    if (ctx.count('/http/reset-once.ttl') === 1) return void req.socket.destroy();
    send(res, 200, 'text/turtle', '<http://example.org/reset> <http://example.org/p> "after reset" .\n');
  },
  '/forbidden/data.ttl': (_q, res) => send(res, 200, 'text/turtle', GOOD_TTL),
};

/** Pages that cost real CPU or bandwidth to read (crawled on their own so they do not skew the timing cases). */
export const HEAVY_PATHS = ['/size/gzip-bomb', '/size/brotli-bomb', '/size/long-line.html', '/size/million-links.html'];

/** Paths served (every one a trap or a good document). */
export const HOSTILE_PATHS = Object.keys(ROUTES).filter((p) => p !== '/robots.txt');

/**
 * Starts the hostile server. Besides the fixed routes: `/` (links to every route), `/cal?month=N` (an infinite
 * calendar), `/session/page?sid=…` (a fresh session id in every link), `/dup/N` (the same Turtle under any N),
 * `/dup/r/N` (redirects to `/dup/final.ttl`), `/chain/N` (redirects to N+1 until `/chain/end`: N hops from 0),
 * `/m/N` (the million-link targets), `/canary/*` (never asked for, but for the JSON-LD context the crawler fetches once).
 */
export async function startHostileServer(): Promise<HostileServer> {
  brotliBomb ??= await buildBrotliBomb();
  gzipMember ??= zlib.gzipSync(Buffer.alloc(10 * MB, 0x20), { level: 9 });
  const hitLog = new Map<string, number[]>();
  let longest = 0;
  const sockets = new Set<Socket>();
  let origin = '';
  const server: Server = createServer((req, res) => {
    longest = Math.max(longest, (req.url ?? '').length);
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const log = hitLog.get(path) ?? [];
    log.push(Date.now());
    hitLog.set(path, log);
    const closers: Array<() => void> = [];
    const ctx: Ctx = { origin, url, onClose: (fn) => closers.push(fn), count: (p) => hitLog.get(p)?.length ?? 0 };
    // The response's close (not the keep-alive socket's, which would gather one listener per request).
    res.once('close', () => {
      for (const fn of closers) fn();
    });
    res.on('error', () => {});
    const route = ROUTES[path];
    if (route) return route(req, res, ctx);
    if (path === '/') return send(res, 200, 'text/html', html(HOSTILE_PATHS.map((p) => `<a href="${p}">${p}</a>`).join(' ')));
    if (path === '/cal') {
      const m = Number(url.searchParams.get('month') ?? '0');
      return send(res, 200, 'text/html', html(`Month ${m} <a href="/cal?month=${m + 1}">next</a> <a href="/cal?month=${m - 1}">prev</a>`));
    }
    if (path === '/session/page') {
      const sid = Math.random().toString(36).slice(2);
      return send(res, 200, 'text/html', html(`<a href="/session/page?sid=${sid}">home</a> <a href="/session/other;jsessionid=${sid}">other</a>`));
    }
    if (path.startsWith('/session/other')) return send(res, 200, 'text/html', html(`<a href="/session/page?sid=${Math.random().toString(36).slice(2)}">back</a>`));
    if (/^\/dup\/r\/\d+$/.test(path)) return send(res, 301, 'text/plain', '', { location: '/dup/final.ttl' });
    if (path === '/dup/final.ttl' || /^\/dup\/\d+$/.test(path)) return send(res, 200, 'text/turtle', '<http://example.org/dup> <http://example.org/p> "same" .\n');
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const n = Number(chain[1]);
      return send(res, 302, 'text/plain', '', { location: n <= 1 ? '/chain/end' : `/chain/${n - 1}` });
    }
    if (path === '/chain/end') return send(res, 200, 'text/turtle', '<http://example.org/chain> <http://example.org/p> "end" .\n');
    if (path.startsWith('/t/')) return send(res, 200, 'text/turtle', `<http://example.org${path}> <http://example.org/p> "t" .\n`);
    if (path.startsWith('/m/')) return send(res, 200, 'text/plain', 'ok');
    send(res, 404, 'text/plain', 'not found');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
  });
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    hits: (path) => hitLog.get(path)?.length ?? 0,
    hitTimes: (path) => hitLog.get(path) ?? [],
    hitsUnder: (prefix) => [...hitLog.entries()].filter(([p]) => p.startsWith(prefix)).reduce((n, [, t]) => n + t.length, 0),
    longestTarget: () => longest,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
