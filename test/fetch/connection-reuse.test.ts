// Bodies the fetcher drops (redirects, error pages, robots.txt it does not parse) leave their connection reusable.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { HttpExchange } from '../../src/fetch/types.ts';
import { useFetchHarness } from './harness.ts';

const { serve, fetcher } = useFetchHarness();

/** Sends the head now and `body` a moment later, so that the fetcher drops the body before it has arrived. */
function later(res: ServerResponse, body: string): void {
  res.flushHeaders();
  setTimeout(() => res.end(body), 20);
}

describe('Fetcher: dropped bodies keep the connection', () => {
  it('follows redirects and reads robots.txt and an error page over the same connections', async () => {
    const server = await serve(
      (req, res) => {
        if (req.url === '/a') return later(res.writeHead(303, { location: '/b', 'content-type': 'text/html' }), '<p>see /b</p>');
        if (req.url === '/b') return later(res.writeHead(301, { location: '/c', 'content-type': 'text/html' }), '<p>moved</p>');
        if (req.url === '/gone') return later(res.writeHead(404, { 'content-type': 'text/html' }), '<p>not here</p>'.repeat(100));
        res.writeHead(200, { 'content-type': 'text/turtle' }).end('<a> <b> <c> .');
      },
      (_req, res) => later(res.writeHead(404, { 'content-type': 'text/plain' }), 'no robots.txt here'),
    );
    const f = fetcher();
    const ok = await f.fetch(`${server.origin}/a`);
    expect([ok.kind, ok.finalUrl, ok.redirects.length]).toEqual(['ok', `${server.origin}/c`, 2]);
    const gone = await f.fetch(`${server.origin}/gone`);
    expect([gone.kind, gone.status]).toEqual(['http-error', 404]);
    expect((await f.fetch(`${server.origin}/c`)).kind).toBe('ok');
    // robots.txt (404), /a (303), /b (301), /c, /gone (404), /c: six requests. A dropped body used to be destroyed before
    // it arrived, and its connection with it: five connections. Read to its end, it keeps its connection (two serve all).
    expect(server.requests.map((r) => r.url)).toEqual(['/robots.txt', '/a', '/b', '/c', '/gone', '/c']);
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('closes the connection of a dropped body longer than it reads', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/big-error') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(1 << 20));
      res.writeHead(200, { 'content-type': 'text/turtle' }).end('<a> <b> <c> .');
    });
    const f = fetcher();
    expect((await f.fetch(`${server.origin}/big-error`)).status).toBe(500);
    expect((await f.fetch(`${server.origin}/ok`)).kind).toBe('ok');
    expect(server.connections()).toBe(2);
  });
  it('on tape (--warc), a dropped body is still recorded as not read, and its connection is still kept', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/a') return later(res.writeHead(303, { location: '/b', 'content-type': 'text/html' }), '<p>see /b</p>');
      res.writeHead(200, { 'content-type': 'text/turtle' }).end('<a> <b> <c> .');
    });
    const exchanges: HttpExchange[] = [];
    const f = fetcher({ onExchange: (x: HttpExchange) => exchanges.push(x) });
    expect((await f.fetch(`${server.origin}/a`)).kind).toBe('ok');
    expect((await f.fetch(`${server.origin}/b`)).kind).toBe('ok');
    const redirect = exchanges.find((x) => x.status === 303);
    // The redirect's body was read off the wire and thrown away: the record holds none of it and says so (WARC 1.1
    // §5.13), as when the body was destroyed unread.
    expect([redirect?.body.length, redirect?.truncated]).toEqual([0, 'unspecified']);
    expect(exchanges.filter((x) => x.status === 200).map((x) => [Buffer.concat(x.body).toString(), x.truncated])).toEqual([
      ['<a> <b> <c> .', null],
      ['<a> <b> <c> .', null],
    ]);
    expect(server.connections()).toBeLessThanOrEqual(2);
  });
});
