import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FetchResult } from '../../src/fetch/types.ts';
import { Fetcher } from '../../src/fetch/fetcher.ts';
import { startHttpServer } from '../helpers/http-server.ts';
import { useFetchHarness } from './harness.ts';

const { serve, fetcher } = useFetchHarness();

function expectKind<K extends FetchResult['kind']>(result: FetchResult, kind: K): Extract<FetchResult, { kind: K }> {
  expect(result.kind, JSON.stringify({ ...result, body: undefined })).toBe(kind);
  return result as Extract<FetchResult, { kind: K }>;
}

describe('Fetcher: requests and redirects', () => {
  it('sends a q-weighted Accept ranking RDF above HTML, our User-Agent, and reads the body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/turtle; charset=utf-8' }).end('<a> <b> <c> .');
    });
    const result = expectKind(await fetcher().fetch(`${server.origin}/doc.ttl`), 'ok');
    expect(result.body.toString()).toBe('<a> <b> <c> .');
    expect(result.charset).toBe('utf-8');
    expect(result.contentType).toBe('text/turtle; charset=utf-8');
    expect(result.finalUrl).toBe(`${server.origin}/doc.ttl`);
    const seen = server.requests.find((r) => r.url === '/doc.ttl');
    expect(seen?.headers['user-agent']).toBe('rdfscout/0.1 (+https://github.com/rdfscout/rdfscout)');
    const accept = String(seen?.headers.accept);
    const q = (type: string) => {
      const part = accept.split(',').find((p) => p.trim().split(';')[0] === type);
      expect(part, type).toBeDefined();
      const m = /q=([\d.]+)/.exec(part ?? '');
      return m ? Number(m[1]) : 1;
    };
    for (const rdf of ['text/turtle', 'application/rdf+xml', 'application/n-triples', 'application/n-quads', 'application/ld+json', 'application/trig', 'text/n3']) {
      expect(q(rdf), rdf).toBeGreaterThan(q('text/html'));
    }
    expect(q('text/html')).toBeGreaterThan(q('*/*'));
    expect(q('*/*')).toBe(0.1);
  });

  it('follows a 301 → 302 → 303 → 307 → 308 chain and records every hop', async () => {
    const chain: Record<string, [number, string]> = {
      '/a': [301, '/b'],
      '/b': [302, 'c'], // relative to /b
      '/c': [303, '/d?x=1'],
      '/d?x=1': [307, '/e#frag'],
      '/e': [308, '/final'],
    };
    const server = await serve((req, res) => {
      const hop = chain[req.url ?? ''];
      if (hop) res.writeHead(hop[0], { location: hop[1] }).end('moved');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('here');
    });
    const o = server.origin;
    const result = expectKind(await fetcher().fetch(`${o}/a`), 'ok');
    expect(result.finalUrl).toBe(`${o}/final`);
    expect(result.redirects).toEqual([
      { from: `${o}/a`, to: `${o}/b`, status: 301 },
      { from: `${o}/b`, to: `${o}/c`, status: 302 },
      { from: `${o}/c`, to: `${o}/d?x=1`, status: 303 },
      { from: `${o}/d?x=1`, to: `${o}/e`, status: 307 },
      { from: `${o}/e`, to: `${o}/final`, status: 308 },
    ]);
  });

  it('stops after maxRedirects hops with RDFSCOUT_REDIRECT_LIMIT', async () => {
    const server = await serve((req, res) => {
      const n = Number((req.url ?? '/0').slice(1));
      res.writeHead(302, { location: `/${n + 1}` }).end();
    });
    const result = expectKind(await fetcher({ maxRedirects: 3 }).fetch(`${server.origin}/0`), 'failed');
    expect(result.error).toBe('RDFSCOUT_REDIRECT_LIMIT');
    expect(result.redirects).toHaveLength(4);
    expect(server.requests.filter((r) => r.url !== '/robots.txt')).toHaveLength(4); // /0../3; /4 is never asked
  });

  it('detects a redirect loop', async () => {
    const server = await serve((req, res) => {
      res.writeHead(301, { location: req.url === '/x' ? '/y' : '/x' }).end();
    });
    const result = expectKind(await fetcher().fetch(`${server.origin}/x`), 'failed');
    expect(result.error).toBe('RDFSCOUT_REDIRECT_LOOP');
    expect(result.redirects.map((h) => h.to)).toEqual([`${server.origin}/y`, `${server.origin}/x`]);
    expect(result.retryable).toBe(false);
  });

  it('refuses redirects to non-HTTP schemes and URLs over maxUrlLength', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/ftp') res.writeHead(302, { location: 'ftp://example.org/x' }).end();
      else res.writeHead(302, { location: `/${'a'.repeat(300)}` }).end();
    });
    const f = fetcher({ maxUrlLength: 100 });
    expect(expectKind(await f.fetch(`${server.origin}/ftp`), 'failed').error).toBe('RDFSCOUT_INVALID_URL');
    const long = expectKind(await f.fetch(`${server.origin}/long`), 'failed');
    expect(long.error).toBe('RDFSCOUT_URL_TOO_LONG');
    expect(expectKind(await f.fetch(`http://127.0.0.1/${'x'.repeat(100_000)}`), 'failed').error).toBe('RDFSCOUT_URL_TOO_LONG');
    expect(expectKind(await f.fetch('not a url'), 'failed').error).toBe('RDFSCOUT_INVALID_URL');
  });

  it('skips the body when the read decision says no', async () => {
    let bodyBytesWritten = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024);
      const write = () => {
        while (bodyBytesWritten < 20 * 1024 * 1024) {
          bodyBytesWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    });
    const asked: unknown[] = [];
    const result = await fetcher().fetch(`${server.origin}/logo.png`, {
      read: (head) => {
        asked.push(head);
        return head.contentType?.startsWith('text/') ?? false;
      },
    });
    const skipped = expectKind(result, 'skipped');
    expect(skipped.status).toBe(200);
    expect(asked).toEqual([{ url: `${server.origin}/logo.png`, status: 200, contentType: 'image/png' }]);
    await new Promise((r) => setTimeout(r, 50));
    expect(bodyBytesWritten).toBeLessThan(20 * 1024 * 1024); // the 20 MB body was not downloaded
  });
});

describe('Fetcher: HTTP errors', () => {
  it('429 and 503 carry Retry-After in ms (seconds or HTTP date) and RDFSCOUT_RATE_LIMITED', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/429') res.writeHead(429, { 'retry-after': '120' }).end();
      else if (req.url === '/503') res.writeHead(503, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }).end();
      else res.writeHead(404, { 'content-type': 'text/html' }).end('nope');
    });
    const f = fetcher();
    const r429 = expectKind(await f.fetch(`${server.origin}/429`), 'http-error');
    expect(r429).toMatchObject({ status: 429, error: 'RDFSCOUT_RATE_LIMITED', retryAfterMs: 120_000 });
    const r503 = expectKind(await f.fetch(`${server.origin}/503`), 'http-error');
    expect(r503.error).toBe('RDFSCOUT_RATE_LIMITED');
    expect(r503.retryAfterMs).toBeGreaterThan(25_000);
    expect(r503.retryAfterMs).toBeLessThanOrEqual(30_000);
    const r404 = expectKind(await f.fetch(`${server.origin}/missing`), 'http-error');
    expect(r404).toMatchObject({ status: 404, error: 'RDFSCOUT_HTTP_STATUS', retryAfterMs: null, contentType: 'text/html' });
  });

  it('maps a connection reset and a refused connection to retryable RDFSCOUT_CONNECTION_FAILED', async () => {
    const server = await serve((req) => {
      req.socket.destroy();
    });
    const f = fetcher();
    const reset = expectKind(await f.fetch(`${server.origin}/reset`), 'failed');
    expect(reset).toMatchObject({ error: 'RDFSCOUT_CONNECTION_FAILED', retryable: true, status: null });
    const closed = await startHttpServer(() => {});
    await closed.close();
    const refused = expectKind(await f.fetch(`${closed.origin}/`), 'failed');
    expect(refused.error).toBe('RDFSCOUT_ROBOTS_UNAVAILABLE'); // robots.txt first: its network failure means "retry later"
    expect(refused.retryable).toBe(true);
    const direct = expectKind(await fetcher({ obeyRobots: false }).fetch(`${closed.origin}/`), 'failed');
    expect(direct).toMatchObject({ error: 'RDFSCOUT_CONNECTION_FAILED', retryable: true });
  });

  it('rejects unknown options with a helpful message', () => {
    expect(() => new Fetcher({ maxRedirect: 3 } as never)).toThrow(/Unknown fetcher option "maxRedirect"/);
    expect(() => new Fetcher({ maxBodyBytes: -1 })).toThrow(/maxBodyBytes/);
    expect(() => new Fetcher({ proxy: 'socks://x' })).toThrow(/Proxy/);
    const f = fetcher({ maxRedirects: 2 });
    expect(f.config.maxRedirects).toBe(2);
    expect(f.config.maxBodyBytes).toBe(10 * 1024 * 1024);
    expect(Object.isFrozen(f.config)).toBe(true);
  });
});

describe('Fetcher: charset on ok results', () => {
  it('reports the header charset, else the BOM, else null', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/bom') res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]));
      else if (req.url === '/header') res.writeHead(200, { 'content-type': 'text/html; charset=Shift_JIS' }).end('hi');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<meta charset="koi8-r">');
    });
    const f = fetcher();
    expect(expectKind(await f.fetch(`${server.origin}/bom`), 'ok').charset).toBe('utf-8');
    expect(expectKind(await f.fetch(`${server.origin}/header`), 'ok').charset).toBe('shift_jis');
    expect(expectKind(await f.fetch(`${server.origin}/none`), 'ok').charset).toBeNull(); // the caller sniffs with decodeText
  });
});

describe('Fetcher: gzip', () => {
  it('decodes gzip, deflate and br bodies', async () => {
    const text = 'ex:a ex:b ex:c .\n'.repeat(1000);
    const zlib = await import('node:zlib');
    const server = await serve((req, res) => {
      const enc = (req.url ?? '/').slice(1);
      const body = enc === 'gzip' ? zlib.gzipSync(text) : enc === 'deflate' ? zlib.deflateSync(text) : zlib.brotliCompressSync(text);
      res.writeHead(200, { 'content-type': 'text/turtle', 'content-encoding': enc }).end(body);
    });
    const f = fetcher();
    for (const enc of ['gzip', 'deflate', 'br']) {
      expect(expectKind(await f.fetch(`${server.origin}/${enc}`), 'ok').body.toString(), enc).toBe(text);
    }
    expect(String(server.requests.at(-1)?.headers['accept-encoding'])).toContain('gzip');
  });

  it('reports truncated gzip as RDFSCOUT_DECODE_FAILED', async () => {
    const gz = gzipSync(Buffer.alloc(200_000, 'x'));
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gz.subarray(0, Math.floor(gz.length / 2)));
    });
    const result = expectKind(await fetcher().fetch(`${server.origin}/t`), 'failed');
    expect(result).toMatchObject({ error: 'RDFSCOUT_DECODE_FAILED', status: 200, retryable: false });
  });
});

describe('Fetcher: callers', () => {
  it('publishes rdfscout:fetch:start/end on diagnostics_channel', async () => {
    const { subscribe, unsubscribe } = await import('node:diagnostics_channel');
    const server = await serve((_req, res) => res.writeHead(200).end('x'));
    const events: string[] = [];
    const onStart = (m: unknown) => events.push(`start ${(m as { url: string }).url}`);
    const onEnd = (m: unknown) => events.push(`end ${(m as { result: FetchResult }).result.kind}`);
    subscribe('rdfscout:fetch:start', onStart);
    subscribe('rdfscout:fetch:end', onEnd);
    try {
      await fetcher().fetch(`${server.origin}/d`);
    } finally {
      unsubscribe('rdfscout:fetch:start', onStart);
      unsubscribe('rdfscout:fetch:end', onEnd);
    }
    expect(events).toEqual([`start ${server.origin}/d`, 'end ok']);
  });

  it('rethrows an exception of the read decision instead of recording a network failure', async () => {
    const server = await serve((_req, res) => res.writeHead(200).end('x'));
    const bug = new Error('bug in read decision');
    await expect(
      fetcher().fetch(`${server.origin}/d`, {
        read: () => {
          throw bug;
        },
      }),
    ).rejects.toBe(bug);
  });
});
