// A real node:http (or node:https) server on 127.0.0.1, port 0, that records what it received and closes every socket on close().
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. `url` is the request target: a path, or an absolute URL through a proxy. */
interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`) */
  origin: string;
  port: number;
  server: Server;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Stops listening and destroys open sockets (a trickling response does not keep the test alive). */
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Options of {@link startHttpServer}. */
export interface TestServerOptions {
  /** Serve https with this key and certificate (PEM), e.g. from test-ca.ts's `makeTestCa`. */
  tls?: { key: string; cert: string };
}

/** Starts a server; a handler that throws answers 500. */
export async function startHttpServer(handler: Handler, options: TestServerOptions = {}): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
  };
  const server: Server = options.tls === undefined ? createServer(listener) : createTlsServer(options.tls, listener);
  // A client that refuses the certificate (or speaks plain http) is the test's business, not an unhandled error.
  server.on('tlsClientError', () => {});
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    port,
    server,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** For a server used as an HTTP forward proxy: the absolute-form target of a request, or null for origin-form. */
export function absoluteTarget(req: IncomingMessage): URL | null {
  const target = req.url ?? '';
  return /^https?:\/\//i.test(target) ? new URL(target) : null;
}
