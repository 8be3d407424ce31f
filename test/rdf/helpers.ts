// Shared helpers of the rdf tests: fixtures, a hit-counting 127.0.0.1 server (temp folders: test/helpers/temp-dir.ts).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { exportNQuads } from '../../src/rdf/index.ts';
import type { CrawlState } from '../../src/state/open-state.ts';

export function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/rdf/${name}`, import.meta.url), 'utf8');
}

/** A server on 127.0.0.1 that answers every request with a JSON-LD context and counts the hits. */
export async function startCountingServer(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.setHeader('content-type', 'application/ld+json');
    res.end('{"@context": {"name": "http://evil.example/name"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, hits: () => hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export { makeTempDir } from '../helpers/temp-dir.ts';

/** The whole store exported as N-Quads text. */
export async function exportText(state: CrawlState): Promise<string> {
  const parts: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      parts.push(chunk.toString());
      cb();
    },
  });
  await exportNQuads(state, sink);
  return parts.join('');
}
