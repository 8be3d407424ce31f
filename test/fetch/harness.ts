// Test harness of the fetch suites: servers on 127.0.0.1 and Fetchers that are closed after each test.
import { afterEach } from 'vitest';
import { Fetcher } from '../../src/fetch/fetcher.ts';
import type { FetcherOptions } from '../../src/fetch/options.ts';
import { type Handler, startHttpServer, type TestServer } from '../helpers/http-server.ts';

export interface FetchHarness {
  /** A server answering `handler`; robots.txt by `robots`, else 404 (everything allowed). */
  serve(handler: Handler, robots?: Handler): Promise<TestServer>;
  /** A Fetcher allowed to reach 127.0.0.1. */
  fetcher(options?: FetcherOptions): Fetcher;
}

/** Call once at the top of a test file: what it opens is closed after each test. */
export function useFetchHarness(): FetchHarness {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((x) => x.close()));
  });
  return {
    async serve(handler, robots) {
      const server = await startHttpServer((req, res) => {
        if (req.url === '/robots.txt') return robots ? robots(req, res) : void res.writeHead(404).end();
        return handler(req, res);
      });
      open.push(server);
      return server;
    },
    fetcher(options = {}) {
      const f = new Fetcher({ allowPrivate: true, ...options });
      open.push(f);
      return f;
    },
  };
}
