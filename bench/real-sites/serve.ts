// **serveRealSites** serves laid-out real sites on 127.0.0.1 by Host, over http and https: one HTTP server that is
// also a forward proxy (absolute-form http requests, CONNECT for https), and one TLS server with a self-signed
// certificate naming every host. The crawler reaches them through `--proxy` (as it reaches the simulated web) and
// trusts the certificate through NODE_EXTRA_CA_CERTS; nothing is forwarded anywhere else.
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServedSite, staticAnswer } from './static-host.ts';

export interface RealSitesServer {
  /** `http://127.0.0.1:PORT`: the crawler's `--proxy`. */
  proxyUrl: string;
  /** PEM file of the self-signed certificate (give it to the crawler as NODE_EXTRA_CA_CERTS). */
  caFile: string;
  /** Requests answered, by status. */
  stats(): { requests: number; byStatus: Record<string, number> };
  close(): Promise<void>;
}

/** Starts both servers on 127.0.0.1 (free ports). */
export async function serveRealSites(sites: readonly ServedSite[]): Promise<RealSitesServer> {
  const hosts = [...new Set(sites.flatMap((s) => s.site.hosts))];
  const tmp = mkdtempSync(join(tmpdir(), 'rdfscout-real-sites-'));
  const keyFile = join(tmp, 'key.pem');
  const caFile = join(tmp, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=rdfscout real-sites bench',
    '-keyout', keyFile, '-out', caFile, '-addext', `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`,
  ], { stdio: 'ignore' });
  const stats = { requests: 0, byStatus: {} as Record<string, number> };

  const answer = (scheme: 'http' | 'https') => (req: IncomingMessage, res: ServerResponse) => {
    stats.requests++;
    let url: URL;
    try {
      url = req.url?.startsWith('http://') ? new URL(req.url) : new URL(`${scheme}://${req.headers.host ?? 'unknown'}${req.url ?? '/'}`);
    } catch {
      return send(res, 400, 'bad request');
    }
    const a = staticAnswer(sites, url);
    if (a.kind === 'redirect') {
      res.setHeader('location', a.location);
      return send(res, 301, `moved to ${a.location}`);
    }
    if (a.kind === 'not-found') return send(res, 404, 'not found');
    stats.byStatus['200'] = (stats.byStatus['200'] ?? 0) + 1;
    res.writeHead(200, { 'content-type': a.contentType });
    if (req.method === 'HEAD') return res.end();
    createReadStream(a.file).pipe(res);
  };
  const send = (res: ServerResponse, status: number, text: string): void => {
    stats.byStatus[String(status)] = (stats.byStatus[String(status)] ?? 0) + 1;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
  };

  const tls = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, answer('https'));
  const plain = createServer(answer('http'));
  const sockets = new Set<Socket>();
  plain.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // CONNECT host:443 → the local TLS server, for the hosts served here only; nothing else is tunnelled.
  plain.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const host = (req.url ?? '').replace(/:\d+$/, '').toLowerCase();
    if (!hosts.includes(host)) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const port = (tls.address() as { port: number }).port;
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await listen(tls);
  await listen(plain);
  const port = (plain.address() as { port: number }).port;
  return {
    proxyUrl: `http://127.0.0.1:${port}`,
    caFile,
    stats: () => ({ requests: stats.requests, byStatus: { ...stats.byStatus } }),
    async close() {
      for (const s of sockets) s.destroy();
      tls.closeAllConnections();
      plain.closeAllConnections();
      await Promise.all([close(tls), close(plain)]);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
