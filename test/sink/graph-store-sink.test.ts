// The Graph Store Protocol client against a real local HTTP server: request shape, retries with back-off, refusals reported.
import type { IncomingMessage } from 'node:http';
import { DataFactory } from 'n3';
import { afterEach, describe, expect, it } from 'vitest';
import { graphBody } from '../../src/sink/graph-body.ts';
import { GraphStoreSink } from '../../src/sink/graph-store-sink.ts';
import { freePort } from '../helpers/free-port.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';

const { quad, namedNode, literal, blankNode } = DataFactory;
const DOC = 'http://data.example/doc?id=1&x=é';
const QUADS = [
  quad(namedNode(`${DOC}#a`), namedNode('http://p.example/name'), literal('Ann', 'en'), namedNode(DOC)),
  quad(namedNode(`${DOC}#a`), namedNode('http://p.example/knows'), blankNode('b1'), namedNode(DOC)),
  quad(namedNode(`${DOC}#a`), namedNode('http://p.example/name'), literal('Ann', 'en'), namedNode('http://other.graph/')),
];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

describe('graphBody', () => {
  it('writes each distinct triple once as N-Triples, without the quads\' graphs', () => {
    const { body, triples } = graphBody(QUADS);
    expect(triples).toBe(2);
    expect(body).toBe(`<${DOC}#a> <http://p.example/name> "Ann"@en .\n<${DOC}#a> <http://p.example/knows> _:b1 .\n`);
  });
});

describe('GraphStoreSink', () => {
  it('PUTs the triples to ?graph=<document URL> and retries 5xx answers with back-off until one succeeds', async () => {
    const bodies: string[] = [];
    const at: number[] = [];
    server = await startHttpServer(async (req, res) => {
      bodies.push(await readBody(req));
      at.push(performance.now());
      if (bodies.length < 3) {
        res.writeHead(503, { 'retry-after': '0' }).end('busy, try again');
      } else {
        res.writeHead(201).end();
      }
    });
    const sink = new GraphStoreSink(`${server.origin}/store?key=v`, { backoffMs: 20 });
    expect(await sink.put(DOC, QUADS)).toEqual({ kind: 'stored', graph: DOC, status: 201, triples: 2, attempts: 3 });
    expect(server.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'PUT']);
    const url = new URL(server.requests[0]!.url, server.origin);
    expect(url.pathname).toBe('/store');
    expect(url.searchParams.get('key')).toBe('v');
    expect(url.searchParams.get('graph')).toBe(DOC);
    expect(server.requests[0]!.headers['content-type']).toBe('application/n-triples; charset=utf-8');
    expect(new Set(bodies)).toEqual(new Set([graphBody(QUADS).body]));
    // Back-off doubles: ≥ 20 ms before the second attempt, ≥ 40 ms before the third.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(19);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(39);
  });

  it('reports a 4xx refusal at once, with the store\'s reason, as not retryable', async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<html><body><h1>Bad</h1><xmp>Literal out of range</xmp></body></html>');
    });
    const sink = new GraphStoreSink(server.origin, { backoffMs: 1 });
    expect(await sink.put(DOC, QUADS)).toEqual({
      kind: 'refused', graph: DOC, status: 400, reason: 'HTTP 400: Literal out of range', attempts: 1, retryable: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('caps a long Retry-After at maxBackoffMs and gives up after its attempts, reporting the document as retryable', async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(429, { 'retry-after': '3600' }).end('slow down');
    });
    const sink = new GraphStoreSink(server.origin, { attempts: 3, backoffMs: 1, maxBackoffMs: 30 });
    const report = await sink.putAll([{ graph: DOC, quads: QUADS }]);
    expect(report).toEqual({
      stored: 0, triples: 0,
      refused: [{ kind: 'refused', graph: DOC, status: 429, reason: 'HTTP 429: slow down', attempts: 3, retryable: true }],
    });
    expect(server.requests).toHaveLength(3);
  });

  it('retries when nothing listens, then reports the document with the connection error', async () => {
    const port = await freePort();
    const sink = new GraphStoreSink(`http://127.0.0.1:${port}/gsp`, { attempts: 2, backoffMs: 1 });
    expect(await sink.put(DOC, QUADS)).toEqual({
      kind: 'refused', graph: DOC, status: null, reason: expect.stringContaining('ECONNREFUSED'), attempts: 2, retryable: true,
    });
  });

  it('sends user and password of the endpoint URL as Basic authentication, not in the request URL', async () => {
    server = await startHttpServer((_req, res) => res.writeHead(204).end());
    const sink = new GraphStoreSink(`http://dba:s%3Acret@127.0.0.1:${server.port}/gsp`);
    expect(sink.endpoint).toBe(`http://127.0.0.1:${server.port}/gsp`);
    expect(await sink.put(DOC, QUADS)).toMatchObject({ kind: 'stored', status: 204 });
    expect(server.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('dba:s:cret').toString('base64')}`);
    expect(server.requests[0]!.url).not.toContain('dba');
  });

  it('stores every document of putAll, keeping at most `concurrency` requests open', async () => {
    let open = 0;
    let maxOpen = 0;
    server = await startHttpServer(async (req, res) => {
      open++;
      maxOpen = Math.max(maxOpen, open);
      await readBody(req);
      await new Promise((r) => setTimeout(r, 5));
      open--;
      res.writeHead(201).end();
    });
    const sink = new GraphStoreSink(server.origin);
    async function* docs() {
      for (let i = 0; i < 12; i++) yield { graph: `http://d.example/${i}`, quads: QUADS };
    }
    expect(await sink.putAll(docs(), 3)).toEqual({ stored: 12, triples: 24, refused: [] });
    expect(maxOpen).toBeLessThanOrEqual(3);
    const graphs = server.requests.map((r) => new URL(r.url, server!.origin).searchParams.get('graph'));
    expect(new Set(graphs).size).toBe(12);
  });

  it.each([
    ['ftp://store.example/gsp', 'http(s) URL'],
    ['not a url', 'Graph Store Protocol endpoint'],
  ])('refuses the endpoint %s', (endpoint, why) => {
    expect(() => new GraphStoreSink(endpoint)).toThrow(expect.objectContaining({ code: 'RDFSCOUT_INVALID_URL', message: expect.stringContaining(why) }));
  });

  it('refuses unknown options and bad numbers', () => {
    expect(() => new GraphStoreSink('http://x.example/', { retries: 3 } as never)).toThrow(/Unknown sink option "retries"/);
    expect(() => new GraphStoreSink('http://x.example/', { attempts: 0 })).toThrow(/attempts/);
  });
});
