import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolveAll } from '../../src/fetch/address-guard.ts';
import { Fetcher } from '../../src/fetch/fetcher.ts';
import type { FetcherOptions } from '../../src/fetch/options.ts';
import { absoluteTarget, startHttpServer, type TestServer } from '../helpers/http-server.ts';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

function fetcher(options: FetcherOptions): Fetcher {
  const f = new Fetcher(options);
  open.push(f);
  return f;
}

/**
 * A forward proxy on 127.0.0.1 serving a small web of several host names itself. It answers 400 to
 * anything that is not an absolute-form request line, and 502 to hosts it does not know.
 */
async function startWebProxy(): Promise<TestServer> {
  const sites: Record<string, Record<string, [number, Record<string, string>, string]>> = {
    'site-a.example': {
      '/robots.txt': [404, {}, ''],
      '/': [200, { 'content-type': 'text/turtle' }, '<#a> <#b> <#c> .'],
      '/to-b': [303, { location: 'http://site-b.example/doc' }, ''],
      '/to-metadata': [302, { location: 'http://169.254.169.254/latest/meta-data/' }, ''],
      '/to-internal': [301, { location: 'http://10.0.0.1/admin' }, ''],
    },
    'site-b.example': {
      '/robots.txt': [200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n'],
      '/doc': [200, { 'content-type': 'application/ld+json' }, '{"@id": "http://site-b.example/doc"}'],
      '/private/x': [200, {}, 'secret'],
    },
  };
  const proxy = await startHttpServer((req, res) => {
    const target = absoluteTarget(req);
    if (target === null) return void res.writeHead(400).end('proxy expects absolute-form');
    if (req.headers.host !== target.host) return void res.writeHead(400).end('Host header differs from target');
    const page = sites[target.hostname]?.[target.pathname];
    if (page === undefined) return void res.writeHead(sites[target.hostname] ? 404 : 502).end();
    res.writeHead(page[0], page[1]).end(page[2]);
  });
  open.push(proxy);
  return proxy;
}

describe('through an HTTP forward proxy', () => {
  it('sends absolute-form request lines (no CONNECT) and reaches several host names on one port', async () => {
    const proxy = await startWebProxy();
    const f = fetcher({ proxy: proxy.origin });
    const a = await f.fetch('http://site-a.example/');
    expect(a).toMatchObject({ kind: 'ok', status: 200, contentType: 'text/turtle' });
    const b = await f.fetch('http://site-a.example/to-b');
    expect(b).toMatchObject({ kind: 'ok', finalUrl: 'http://site-b.example/doc' });
    expect(b.redirects).toEqual([{ from: 'http://site-a.example/to-b', to: 'http://site-b.example/doc', status: 303 }]);
    const denied = await f.fetch('http://site-b.example/private/x');
    expect(denied.kind).toBe('denied');
    expect(proxy.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET http://site-a.example/robots.txt',
      'GET http://site-a.example/',
      'GET http://site-a.example/to-b',
      'GET http://site-b.example/robots.txt',
      'GET http://site-b.example/doc',
    ]);
  });

  it('refuses private IP-literal URLs before any connection (decimal, hex and IPv6 forms too)', async () => {
    const proxy = await startWebProxy();
    const f = fetcher({ proxy: proxy.origin });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://10.0.0.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://[::ffff:192.168.0.1]/',
      'http://[fd00::1]:8080/',
    ]) {
      const result = await f.fetch(url);
      expect(result, url).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_PRIVATE_ADDRESS', retryable: false });
    }
    expect(proxy.connections()).toBe(0);
    expect(proxy.requests).toEqual([]);
  });

  it('refuses a redirect from a public page to a private address, recording the hop', async () => {
    const proxy = await startWebProxy();
    const f = fetcher({ proxy: proxy.origin });
    const meta = await f.fetch('http://site-a.example/to-metadata');
    expect(meta).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_PRIVATE_ADDRESS', finalUrl: 'http://169.254.169.254/latest/meta-data/' });
    expect(meta.redirects).toHaveLength(1);
    const internal = await f.fetch('http://site-a.example/to-internal');
    expect(internal).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_PRIVATE_ADDRESS' });
    expect(proxy.requests.every((r) => r.url.startsWith('http://site-a.example/'))).toBe(true);
  });

  it('with allowPrivate the proxy is asked for private literals too', async () => {
    const proxy = await startWebProxy();
    const result = await fetcher({ proxy: proxy.origin, allowPrivate: true }).fetch('http://10.0.0.1/');
    expect(result).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_ROBOTS_UNAVAILABLE' }); // the test proxy answers 502
    expect(proxy.requests.map((r) => r.url)).toEqual(['http://10.0.0.1/robots.txt']);
  });
});

function fakeResolve(table: Record<string, string>): ResolveAll {
  return (hostname, _options, callback) => {
    const address = table[hostname];
    if (address === undefined) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = 'ENOTFOUND';
      return callback(err, []);
    }
    callback(null, [{ address, family: 4 } satisfies LookupAddress]);
  };
}

describe('direct connections (no proxy)', () => {
  async function localSite(): Promise<TestServer> {
    const server = await startHttpServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`host=${req.headers.host}`);
    });
    open.push(server);
    return server;
  }

  it('refuses a name resolving to loopback (localhost) and a loopback literal, without connecting', async () => {
    const server = await localSite();
    const f = fetcher({});
    const byName = await f.fetch(`http://localhost:${server.port}/`);
    expect(byName).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_PRIVATE_ADDRESS', retryable: false });
    const byLiteral = await f.fetch(`${server.origin}/`);
    expect(byLiteral).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_PRIVATE_ADDRESS' });
    expect(server.connections()).toBe(0);
  });

  it('connects to exactly the address the guarded lookup checked', async () => {
    const server = await localSite();
    const resolve = fakeResolve({ 'site-a.example': '127.0.0.1' });
    const allowed = fetcher({ allowPrivate: true, resolve });
    const result = await allowed.fetch(`http://site-a.example:${server.port}/page`);
    expect(result.kind).toBe('ok');
    if (result.kind === 'ok') expect(result.body.toString()).toBe(`host=site-a.example:${server.port}`);
    const before = server.connections();
    const guarded = fetcher({ resolve });
    expect(await guarded.fetch(`http://site-a.example:${server.port}/page`)).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_PRIVATE_ADDRESS' });
    expect(server.connections()).toBe(before);
    const unknown = await guarded.fetch(`http://nowhere.example:${server.port}/`);
    expect(unknown).toMatchObject({ kind: 'failed', error: 'RDFSCOUT_CONNECTION_FAILED', retryable: false });
  });
});
