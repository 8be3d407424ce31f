// A small generated Linked-Data web behind one HTTP proxy on 127.0.0.1: sites of Turtle documents, an endless calendar, a dead host; over http or https.
import { createServer as createTlsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { Prng } from '../../../src/random/prng.ts';
import { absoluteTarget, startHttpServer, type TestServer } from '../../helpers/http-server.ts';
import { makeTestCa, type TestCa } from '../../helpers/test-ca.ts';
import { makeTempDir } from '../../helpers/temp-dir.ts';

/** How a web is made (all from a seed: the same settings give the same web). */
export interface WebSpec {
  seed: number;
  /** Sites (PLDs) of Turtle documents: how many documents each has. */
  sites: number[];
  /** A site whose documents link the next month for ever (a crawler trap: only a budget or a depth ends it). */
  calendar: boolean;
  /** Documents also link a host whose connections fail (the proxy closes them at once): a dead origin. */
  deadHost: boolean;
  /**
   * Every host is served over https (the proxy tunnels CONNECT to a TLS server whose certificate a test CA signed;
   * the crawls trust the CA: in this process by `tls.setDefaultCACertificates`, in a child by NODE_EXTRA_CA_CERTS).
   */
  https?: boolean;
}

export interface CaseWeb {
  proxy: string;
  seeds: string[];
  /** Every URL of the finite part of the web (calendar pages excluded), for "nothing lost" checks. */
  finite: string[];
  /** The origins that never answer (`https://dead.example`): a crawl's URLs there are not its live ones. */
  deadOrigins: string[];
  requests(): number;
  /**
   * Calls `fn` (once) at the first request to the dead host made after every URL of `live` has been requested since
   * this call: the crawl then holds only the dead host's URLs (and live ones still being stored).
   */
  onLiveExhausted(live: Iterable<string>, fn: () => void): void;
  /** What a crawl in a child process needs in its environment (the CA to trust, with https). */
  childEnv: Record<string, string>;
  close(): Promise<void>;
}

const SEE_ALSO = '<http://www.w3.org/2000/01/rdf-schema#seeAlso>';
const HOSTS = ['site0.example', 'site1.example', 'site2.example', 'calendar.example', 'dead.example'];
const origins = (spec: WebSpec) => {
  const scheme = spec.https === true ? 'https' : 'http';
  return { site: (s: number) => `${scheme}://site${s}.example`, dead: `${scheme}://dead.example`, calendar: `${scheme}://calendar.example` };
};

/** The test CA of this process (made once), trusted by this process's TLS connections from then on. */
let processCa: Promise<TestCa> | null = null;
function caseCa(): Promise<TestCa> {
  processCa ??= (async () => {
    const { dir } = await makeTempDir('case-ca'); // kept while the process runs: children read the CA file
    const ca = await makeTestCa(dir, HOSTS);
    const { readFile } = await import('node:fs/promises');
    setDefaultCACertificates([...getCACertificates('default'), await readFile(ca.caFile, 'utf8')]);
    return ca;
  })();
  return processCa;
}

/** The documents of the web: URL → links (a document is `<url> seeAlso <link>` per link, plus one title triple). */
function webLinks(spec: WebSpec): Map<string, string[]> {
  const rng = new Prng(spec.seed);
  const docs = new Map<string, string[]>();
  const o = origins(spec);
  const siteUrl = (s: number, i: number) => `${o.site(s)}/d${i}.ttl`;
  spec.sites.forEach((n, s) => {
    for (let i = 0; i < n; i++) {
      const links: string[] = [];
      // A tree (so every document is reachable from the site's first) plus a few random links back and across.
      for (const c of [2 * i + 1, 2 * i + 2]) if (c < n) links.push(siteUrl(s, c));
      if (rng.next() < 0.5) links.push(siteUrl(s, Math.floor(rng.next() * n)));
      if (spec.sites.length > 1 && rng.next() < 0.3) {
        const t = (s + 1 + Math.floor(rng.next() * (spec.sites.length - 1))) % spec.sites.length;
        links.push(siteUrl(t, Math.floor(rng.next() * (spec.sites[t] as number))));
      }
      if (spec.deadHost && rng.next() < 0.3) links.push(`${o.dead}/gone${i}.ttl`);
      if (spec.calendar && s === 0 && i === 0) links.push(`${o.calendar}/m0.ttl`);
      docs.set(siteUrl(s, i), links);
    }
  });
  return docs;
}

/** Starts the web's proxy. Seeds: each site's first document (and the calendar's first month). */
export async function startCaseWeb(spec: WebSpec): Promise<CaseWeb> {
  const docs = webLinks(spec);
  const o = origins(spec);
  const requested = new Set<string>();
  let watch: { live: Set<string>; fn: () => void } | null = null;
  const dead = () => {
    if (watch !== null && [...watch.live].every((u) => requested.has(u))) {
      const { fn } = watch;
      watch = null;
      fn();
    }
  };
  const serve = (target: URL, res: ServerResponse) => {
    requested.add(target.href);
    let links = docs.get(target.href);
    const month = /^\/m(\d+)\.ttl$/.exec(target.pathname);
    if (links === undefined && target.origin === o.calendar && month !== null) links = [`${o.calendar}/m${Number(month[1]) + 1}.ttl`];
    if (links === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const body = [`<${target.href}> <http://purl.org/dc/terms/title> "${target.pathname}" .`, ...links.map((l) => `<${target.href}> ${SEE_ALSO} <${l}> .`)].join('\n');
    res.writeHead(200, { 'content-type': 'text/turtle' }).end(`${body}\n`);
  };
  let tunnelled = 0;
  const server: TestServer = await startHttpServer((req, res) => {
    const target = absoluteTarget(req);
    if (target === null) return res.writeHead(400).end();
    if (target.origin === o.dead) {
      dead();
      return (req.socket as Socket).destroy(); // connection closed: a dead origin
    }
    return serve(target, res);
  });
  const ca = spec.https === true ? await caseCa() : null;
  if (ca !== null) {
    // https: CONNECT host:443 is answered by a TLS server in this process (the dead host's is closed at once).
    const tls = createTlsServer({ key: ca.key, cert: ca.cert }, (req: IncomingMessage, res: ServerResponse) => {
      tunnelled++;
      serve(new URL(req.url ?? '/', `https://${req.headers.host ?? ''}`), res);
    });
    tls.on('tlsClientError', () => {});
    server.server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      socket.on('error', () => {});
      const host = (req.url ?? '').replace(/:\d+$/, '');
      if (`https://${host}` === o.dead || !HOSTS.includes(host)) {
        dead();
        return socket.destroy();
      }
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) socket.unshift(head);
      tls.emit('connection', socket);
    });
  }
  const seeds = spec.sites.map((_, s) => `${o.site(s)}/d0.ttl`);
  return {
    proxy: server.origin,
    seeds,
    finite: [...docs.keys()],
    deadOrigins: spec.deadHost ? [o.dead] : [],
    requests: () => server.requests.length + tunnelled,
    onLiveExhausted(live, fn) {
      requested.clear();
      watch = { live: new Set(live), fn };
    },
    childEnv: ca === null ? {} : { NODE_EXTRA_CA_CERTS: ca.caFile },
    close: () => server.close(),
  };
}
