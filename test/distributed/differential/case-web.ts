// A small generated Linked-Data web behind one HTTP proxy on 127.0.0.1: sites of Turtle documents, an endless calendar, a dead host.
import type { Socket } from 'node:net';
import { Prng } from '../../../src/random/prng.ts';
import { absoluteTarget, startHttpServer, type TestServer } from '../../helpers/http-server.ts';

/** How a web is made (all from a seed: the same settings give the same web). */
export interface WebSpec {
  seed: number;
  /** Sites (PLDs) of Turtle documents: how many documents each has. */
  sites: number[];
  /** A site whose documents link the next month for ever (a crawler trap: only a budget or a depth ends it). */
  calendar: boolean;
  /** Documents also link a host whose connections fail (the proxy closes them at once): a dead origin. */
  deadHost: boolean;
}

export interface CaseWeb {
  proxy: string;
  seeds: string[];
  /** Every URL of the finite part of the web (calendar pages excluded), for "nothing lost" checks. */
  finite: string[];
  requests(): number;
  close(): Promise<void>;
}

const SEE_ALSO = '<http://www.w3.org/2000/01/rdf-schema#seeAlso>';
const DEAD_ORIGIN = 'http://dead.example';
const CALENDAR = 'http://calendar.example';

/** The documents of the web: URL → links (a document is `<url> seeAlso <link>` per link, plus one title triple). */
function webLinks(spec: WebSpec): Map<string, string[]> {
  const rng = new Prng(spec.seed);
  const docs = new Map<string, string[]>();
  const siteUrl = (s: number, i: number) => `http://site${s}.example/d${i}.ttl`;
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
      if (spec.deadHost && rng.next() < 0.3) links.push(`${DEAD_ORIGIN}/gone${i}.ttl`);
      if (spec.calendar && s === 0 && i === 0) links.push(`${CALENDAR}/m0.ttl`);
      docs.set(siteUrl(s, i), links);
    }
  });
  return docs;
}

/** Starts the web's proxy. Seeds: each site's first document (and the calendar's first month). */
export async function startCaseWeb(spec: WebSpec): Promise<CaseWeb> {
  const docs = webLinks(spec);
  const server: TestServer = await startHttpServer((req, res) => {
    const target = absoluteTarget(req);
    if (target === null) return res.writeHead(400).end();
    if (target.origin === DEAD_ORIGIN) return (req.socket as Socket).destroy(); // connection closed: a dead origin
    let links = docs.get(target.href);
    const month = /^\/m(\d+)\.ttl$/.exec(target.pathname);
    if (links === undefined && target.origin === CALENDAR && month !== null) links = [`${CALENDAR}/m${Number(month[1]) + 1}.ttl`];
    if (links === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const body = [`<${target.href}> <http://purl.org/dc/terms/title> "${target.pathname}" .`, ...links.map((l) => `<${target.href}> ${SEE_ALSO} <${l}> .`)].join('\n');
    res.writeHead(200, { 'content-type': 'text/turtle' }).end(`${body}\n`);
  });
  const seeds = spec.sites.map((_, s) => `http://site${s}.example/d0.ttl`);
  return { proxy: server.origin, seeds, finite: [...docs.keys()], requests: () => server.requests.length, close: () => server.close() };
}
