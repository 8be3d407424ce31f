// Test helpers for the simulated web: requests through the proxy and triple counting with real parsers.
import { request } from 'node:http';
import { JsonLdParser } from 'jsonld-streaming-parser';
import { Parser } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';

export interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET `url` through the simweb proxy with an absolute-form request line. */
export function proxyGet(proxyUrl: string, url: string, accept?: string): Promise<Got> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: proxy.port, method: 'GET', path: url, headers: accept ? { accept } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Follows redirects through the proxy; returns every hop. */
export async function followChain(proxyUrl: string, url: string, accept?: string): Promise<Array<{ url: string } & Got>> {
  const hops: Array<{ url: string } & Got> = [];
  let current = url;
  for (let i = 0; i < 10; i++) {
    const got = await proxyGet(proxyUrl, current, accept);
    hops.push({ url: current, ...got });
    const location = got.headers.location;
    if (got.status < 300 || got.status >= 400 || typeof location !== 'string') break;
    current = new URL(location, current).href;
  }
  return hops;
}

/** Counts the triples of an RDF body with n3 / rdfxml-streaming-parser / jsonld-streaming-parser. */
export function countTriples(body: string, format: string, baseIRI: string): Promise<number> {
  if (format === 'turtle' || format === 'ntriples') {
    return Promise.resolve(new Parser({ baseIRI, format: format === 'turtle' ? 'text/turtle' : 'application/n-triples' }).parse(body).length);
  }
  const parser = format === 'jsonld' ? new JsonLdParser({ baseIRI }) : new RdfXmlParser({ baseIRI });
  return new Promise((resolve, reject) => {
    let n = 0;
    parser.on('data', () => n++);
    parser.on('error', reject);
    parser.on('end', () => resolve(n));
    parser.write(body);
    parser.end();
  });
}

/** href/src values of a page (a regex is enough for the renderer's own markup). */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));
}
