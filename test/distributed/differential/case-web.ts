// A small generated Linked-Data web behind one HTTP proxy on 127.0.0.1: sites of Turtle documents, an endless calendar, a dead host,
// robots.txt that fails, redirects that loop or lead to the dead host, a host that never answers, many one-document PLDs; over http or https.
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
  /** The last site's robots.txt answers 500 (`error`) or never answers (`timeout`: past the crawl's timeout). */
  robots?: 'error' | 'timeout';
  /** Documents also link redirects: a loop (`/loop-a.ttl` ⇄ `/loop-b.ttl`) and a move to the dead host (`/moved.ttl`). */
  redirects?: boolean;
  /** The first site's first documents link a host that answers its robots.txt (404) and never its documents (past the timeout). */
  slowHost?: boolean;
  /** PLDs of one document each (seeds too), each linking the next and the first site. */
  tinyPlds?: number;
}

export interface CaseWeb {
  proxy: string;
  seeds: string[];
  /** Every URL of the finite part of the web (calendar pages excluded), for "nothing lost" checks. */
  finite: string[];
  /** The origins that never answer (the dead host, the slow one): a crawl's URLs there are not its live ones. */
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
/** Most one-document PLDs a web has. */
export const MAX_TINY_PLDS = 20;
const HOSTS = ['site0.example', 'site1.example', 'site2.example', 'calendar.example', 'dead.example', 'slow.example', ...Array.from({ length: MAX_TINY_PLDS }, (_, k) => `tiny${k}.example`)];
const origins = (spec: WebSpec) => {
  const scheme = spec.https === true ? 'https' : 'http';
  return { site: (s: number) => `${scheme}://site${s}.example`, dead: `${scheme}://dead.example`, calendar: `${scheme}://calendar.example`, slow: `${scheme}://slow.example`, tiny: (k: number) => `${scheme}://tiny${k}.example` };
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
      // The kinds drawn since (no draw when absent: the webs of earlier cases stay as they were).
      if (spec.redirects === true && rng.next() < 0.3) links.push(`${o.site(s)}/${rng.next() < 0.5 ? 'loop-a' : 'moved'}.ttl`);
      if (spec.slowHost === true && s === 0 && i < 2) links.push(`${o.slow}/s${i}.ttl`);
      if ((spec.tinyPlds ?? 0) > 0 && s === 0) links.push(`${o.tiny(i % (spec.tinyPlds as number))}/d0.ttl`);
      docs.set(siteUrl(s, i), links);
    }
  });
  const tiny = spec.tinyPlds ?? 0;
  for (let k = 0; k < tiny; k++) docs.set(`${o.tiny(k)}/d0.ttl`, [`${o.tiny((k + 1) % tiny)}/d0.ttl`, siteUrl(0, 0)]);
  return docs;
}

/** The seeds of a crawl of `spec`: each site's first document and each one-document PLD's. */
export function seedsOf(spec: WebSpec): string[] {
  const o = origins(spec);
  return [...spec.sites.map((_, s) => `${o.site(s)}/d0.ttl`), ...Array.from({ length: spec.tinyPlds ?? 0 }, (_, k) => `${o.tiny(k)}/d0.ttl`)];
}

/**
 * The origins of `spec` that never answer a request a crawl sends: the dead host (linked, or a redirect's target),
 * the slow host, the site whose robots.txt never answers. Their requests end by a connection failure or a timeout,
 * and are retried after wall-clock back-offs.
 */
export function deadOriginsOf(spec: WebSpec): string[] {
  const o = origins(spec);
  return [
    ...(spec.deadHost || spec.redirects === true ? [o.dead] : []),
    ...(spec.slowHost === true ? [o.slow] : []),
    ...(spec.robots === 'timeout' ? [o.site(spec.sites.length - 1)] : []),
  ];
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
  const lastSite = o.site(spec.sites.length - 1);
  const serve = (target: URL, res: ServerResponse) => {
    requested.add(target.href);
    // The slow host answers its robots.txt (none) at once and its documents never (the crawl's timeout ends them).
    if (target.origin === o.slow && target.pathname !== '/robots.txt') return dead();
    if (target.pathname === '/robots.txt' && spec.robots !== undefined && target.origin === lastSite) {
      if (spec.robots === 'timeout') return;
      return res.writeHead(500, { 'content-type': 'text/plain' }).end('robots.txt is broken');
    }
    if (spec.redirects === true && /^\/(loop-a|loop-b|moved)\.ttl$/.test(target.pathname)) {
      const to = target.pathname === '/moved.ttl' ? `${o.dead}/moved.ttl` : target.pathname === '/loop-a.ttl' ? '/loop-b.ttl' : '/loop-a.ttl';
      return res.writeHead(301, { location: to, 'content-type': 'text/plain' }).end('moved');
    }
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
  const seeds = seedsOf(spec);
  return {
    proxy: server.origin,
    seeds,
    finite: [...docs.keys()],
    deadOrigins: deadOriginsOf(spec),
    requests: () => server.requests.length + tunnelled,
    onLiveExhausted(live, fn) {
      requested.clear();
      watch = { live: new Set(live), fn };
    },
    childEnv: ca === null ? {} : { NODE_EXTRA_CA_CERTS: ca.caFile },
    close: () => server.close(),
  };
}
