// The fetcher's `onExchange` (for `--warc`): every exchange (robots.txt, each redirect hop) with its raw bytes off the wire.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from '../../src/fetch/index.ts';
import type { HttpExchange } from '../../src/fetch/types.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';

const TTL = '<http://a.example/s> <http://a.example/p> "o" .\n'.repeat(50);
const GZ = gzipSync(TTL);
let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    if (req.url === '/start') return res.writeHead(302, { location: '/data.ttl', 'content-length': '0' }).end();
    if (req.url === '/data.ttl') return res.writeHead(200, { 'content-type': 'text/turtle', 'content-encoding': 'gzip' }).end(GZ);
    if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
    return res.writeHead(404).end('no');
  });
});
afterAll(() => server.close());

describe('Fetcher onExchange', () => {
  it('reports robots.txt, each redirect hop and the final response, raw (still gzip), grouped by archiveId', async () => {
    const seen: HttpExchange[] = [];
    const fetcher = new Fetcher({ allowPrivate: true, onExchange: (x) => seen.push(x), maxBodyBytes: 4000 });
    try {
      const result = await fetcher.fetch(`${server.origin}/start`, { archiveId: 'f1' });
      expect(result.kind).toBe('ok');
      await new Promise((r) => setImmediate(r));
      expect(seen.map((x) => [x.fetchId, new URL(x.url).pathname, x.status, x.truncated])).toEqual([
        [null, '/robots.txt', 200, null],
        ['f1', '/start', 302, null],
        ['f1', '/data.ttl', 200, null],
      ]);
      const data = seen[2] as HttpExchange;
      expect(Buffer.concat(data.body).equals(GZ)).toBe(true); // the bytes as received, Content-Encoding kept
      expect(data.headers['content-encoding']).toBe('gzip');
      expect(data.requestHeaders.accept).toMatch(/text\/turtle/);

      // A body over the size limit: what was received, marked as cut at a limit.
      const big = await fetcher.fetch(`${server.origin}/big`, { archiveId: 'f2' });
      expect(big.kind).toBe('failed');
      await new Promise((r) => setTimeout(r, 20));
      const cut = seen.find((x) => x.fetchId === 'f2') as HttpExchange;
      expect(cut.truncated).toBe('length');
      // A body not read (an error status): kept empty, said unspecified.
      await fetcher.fetch(`${server.origin}/nothing`, { archiveId: 'f3' });
      await new Promise((r) => setTimeout(r, 20));
      const unread = seen.find((x) => x.fetchId === 'f3') as HttpExchange;
      expect([unread.status, unread.body.length, unread.truncated]).toEqual([404, 0, 'unspecified']);
    } finally {
      await fetcher.close();
    }
  });
});
