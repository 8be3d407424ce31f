import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { FetchResult } from '../../src/fetch/types.ts';
import { useFetchHarness } from './harness.ts';

const { serve, fetcher } = useFetchHarness();
const timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
});

function failed(result: FetchResult): Extract<FetchResult, { kind: 'failed' }> {
  expect(result.kind, JSON.stringify({ ...result, body: undefined })).toBe('failed');
  return result as Extract<FetchResult, { kind: 'failed' }>;
}

describe('Fetcher limits', () => {
  it('stops a chunked body at maxBodyBytes and refuses a too-large Content-Length without reading', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(50 * 1024 * 1024) });
        res.write('x'); // never sends the rest
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 'a')); // 2 MiB, chunked
      res.end();
    });
    const f = fetcher({ maxBodyBytes: 1024 * 1024 });
    const chunked = failed(await f.fetch(`${server.origin}/chunked`));
    expect(chunked).toMatchObject({ error: 'RDFSCOUT_BODY_TOO_LARGE', status: 200, retryable: false });
    const t0 = Date.now();
    const declared = failed(await f.fetch(`${server.origin}/declared`));
    expect(declared.error).toBe('RDFSCOUT_BODY_TOO_LARGE');
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('stops a gzip bomb at maxDecompressedBytes, early, with bounded memory', async () => {
    const member = gzipSync(Buffer.alloc(10 * 1024 * 1024)); // 10 MiB of zeros in ~10 kB; members concatenate
    const members = 1000; // 10 GiB decompressed, ~10 MB on the wire
    let written = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.on('error', () => {});
      const pump = () => {
        while (written < members) {
          written++;
          if (!res.write(member)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const before = process.memoryUsage().rss;
    const t0 = Date.now();
    const result = failed(await fetcher({ maxBodyBytes: 100 * 1024 * 1024, maxDecompressedBytes: 5 * 1024 * 1024 }).fetch(`${server.origin}/bomb`));
    const grew = process.memoryUsage().rss - before;
    expect(result).toMatchObject({ error: 'RDFSCOUT_DECOMPRESSED_TOO_LARGE', status: 200 });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(grew).toBeLessThan(100 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, 100));
    expect(written).toBeLessThan(members); // the socket was closed; the server could not push everything
  });

  it('rejects an unsupported Content-Encoding', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'compress' }).end('xx');
    });
    expect(failed(await fetcher().fetch(`${server.origin}/`)).error).toBe('RDFSCOUT_DECODE_FAILED');
  });
});

describe('Fetcher timeouts', () => {
  it('headers trickled byte by byte (slowloris) hit headersTimeoutMs', async () => {
    const server = await serve((req) => {
      const socket = req.socket;
      socket.write('HTTP/1.1 200 OK\r\n');
      const t = setInterval(() => socket.write('X'), 20); // one header byte every 20 ms, forever
      timers.push(t);
    });
    const t0 = Date.now();
    const result = failed(await fetcher({ headersTimeoutMs: 400, totalTimeoutMs: 10_000 }).fetch(`${server.origin}/slow`));
    expect(result).toMatchObject({ error: 'RDFSCOUT_HEADERS_TIMEOUT', retryable: true });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('a server that accepts and never answers hits headersTimeoutMs', async () => {
    const server = await serve(() => {});
    const t0 = Date.now();
    const result = failed(await fetcher({ headersTimeoutMs: 300 }).fetch(`${server.origin}/silent`));
    expect(result.error).toBe('RDFSCOUT_HEADERS_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('a body that stalls hits bodyTimeoutMs', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk, then silence');
    });
    const result = failed(await fetcher({ bodyTimeoutMs: 300 }).fetch(`${server.origin}/stall`));
    expect(result).toMatchObject({ error: 'RDFSCOUT_BODY_TIMEOUT', status: 200, retryable: true });
  });

  it('a body that never ends (never idle) hits totalTimeoutMs', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => res.write('more '), 20);
      timers.push(t);
    });
    const t0 = Date.now();
    const result = failed(await fetcher({ bodyTimeoutMs: 5000, totalTimeoutMs: 600 }).fetch(`${server.origin}/forever`));
    expect(result).toMatchObject({ error: 'RDFSCOUT_BODY_TIMEOUT', status: 200, retryable: true });
    expect(result.message).toMatch(/total deadline of 600 ms/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('a caller abort ends the fetch', async () => {
    const server = await serve(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const t0 = Date.now();
    const result = failed(await fetcher().fetch(`${server.origin}/wait`, { signal: controller.signal }));
    expect(result).toMatchObject({ error: 'RDFSCOUT_CONNECTION_FAILED', retryable: true, message: 'Fetch aborted by the caller' });
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
