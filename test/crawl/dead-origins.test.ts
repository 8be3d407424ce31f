// A dead origin is not an outage (fetch/connectivity.ts): links to hosts where nothing answers, on another PLD or on
// the site's own, and an https origin that fails while http works, end as failed records within seconds; the crawl
// never pauses, ends by itself, and names the dead origins. An origin that stops answering while others answer too.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/commands/summary-text.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import type { CrawlSummary } from '../../src/crawl-log/tally.ts';
import type { OutageEvent } from '../../src/fetch/outage.ts';
import { SITE_RDF_DOCS, startDeadLinkSite } from '../helpers/dead-link-site.ts';
import { startHttpServer } from '../helpers/http-server.ts';
import { linkPage, startProxyWeb, turtle } from '../helpers/proxy-web.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir, useTempDir } from '../helpers/temp-dir.ts';

/** A crawl that has not ended by itself within this long fails the test (the old code paused for minutes). */
const DEADLINE_MS = 20_000;

const folder = useTempDir({ per: 'file' });
let n = 0;

interface Ran {
  summary: CrawlSummary;
  records: CrawlRecord[];
  outages: OutageEvent[];
  ms: number;
}

/** Crawls `seed` with small, fast settings; fails, naming what it waited for, if the crawl does not end by itself. */
async function crawl(seed: string, more: Partial<CrawlOptions> = {}, deadlineMs = DEADLINE_MS): Promise<Ran> {
  const crawler = await Crawler.open({ out: join(folder.dir, `c${n++}`), seeds: [seed], strategy: 'bfs', allowPrivate: true, offsiteHops: 1, delayMs: 0, concurrency: 3, ...more });
  const outages: OutageEvent[] = [];
  const deadline = AbortSignal.timeout(deadlineMs);
  const t0 = performance.now();
  try {
    const summary = await crawler.run({ signal: deadline, onOutage: (e) => outages.push(e) });
    const ms = performance.now() - t0;
    if (deadline.aborted) throw new Error(`the crawl of ${seed} did not end by itself within ${deadlineMs} ms (waiting for its dead origins' URLs to end as failed); outage events: ${JSON.stringify(outages)}`);
    const records: CrawlRecord[] = [];
    for await (const r of readRecords(crawler.state)) records.push(r);
    return { summary, records, outages, ms };
  } finally {
    await crawler.close();
  }
}

/** What every dead-host crawl must show: every RDF document, no pause, a natural end, each dead URL failed once. */
function expectEndedWithDeadOrigins(ran: Ran, deadUrls: string[], deadOrigins: string[]): void {
  const { summary, records, outages } = ran;
  expect(outages).toEqual([]);
  expect(summary.stoppedBy).toBe('frontier-empty');
  expect(summary.rdfDocuments).toBe(SITE_RDF_DOCS);
  const failed = records.filter((r) => r.outcome === 'failed');
  expect(failed.map((r) => r.url).sort()).toEqual([...deadUrls].sort());
  for (const r of failed) expect(r.errorMessage ?? '').not.toBe('');
  expect((summary.deadOrigins ?? []).map((d) => d.origin).sort()).toEqual([...deadOrigins].sort());
  expect(summary.deadOrigins?.every((d) => !d.answeredBefore && d.reason !== '')).toBe(true);
}

const gone = (origin: string, page: number) => Array.from({ length: 3 }, (_, k) => `${origin}/gone${page * 3 + k}.ttl`);

describe('a dead origin', () => {
  it('on another PLD (nothing listens) ends as failed records: no pause, the crawl ends by itself and names it', async () => {
    const site = await startDeadLinkSite((_port, page) => gone('http://127.0.0.2:9', page));
    try {
      const ran = await crawl(`${site.origin}/`);
      expectEndedWithDeadOrigins(ran, [0, 1, 2].flatMap((p) => gone('http://127.0.0.2:9', p)), ['http://127.0.0.2:9']);
      expect(formatSummary(ran.summary, { maxDocs: 1000, maxDocsPerPld: Infinity, maxDepth: Infinity, maxOfflineMs: 600_000 })).toMatch(
        /1 origin gave no answer .*http:\/\/127\.0\.0\.2:9 \(\d+ failures: robots\.txt of http:\/\/127\.0\.0\.2:9 is unavailable \(ECONNREFUSED/,
      );
    } finally {
      await site.close();
    }
  }, 30_000);

  it("on the site's own PLD does not make the PLD wait for its robots.txt", async () => {
    const site = await startDeadLinkSite((_port, page) => gone('http://127.0.0.1:9', page));
    try {
      const ran = await crawl(`${site.origin}/`);
      expectEndedWithDeadOrigins(ran, [0, 1, 2].flatMap((p) => gone('http://127.0.0.1:9', p)), ['http://127.0.0.1:9']);
      // The live host's documents were not held back behind the dead host's robots.txt retries (30 s each before).
      const ok = ran.records.filter((r) => r.outcome === 'ok');
      const lastOk = Math.max(...ok.map((r) => Date.parse(r.fetchedAt)));
      const firstOk = Math.min(...ok.map((r) => Date.parse(r.fetchedAt)));
      expect(lastOk - firstOk).toBeLessThan(5000);
    } finally {
      await site.close();
    }
  }, 30_000);

  it('an https origin that fails (no TLS there; an untrusted certificate) while http works on the same host', async () => {
    const tls = await startSelfSignedTls();
    const site = await startDeadLinkSite((port, page) => [...gone(`https://127.0.0.1:${port}`, page), `https://127.0.0.1:${tls.port}/secure${page}.ttl`]);
    try {
      const noTls = `https://127.0.0.1:${site.port}`;
      const untrusted = `https://127.0.0.1:${tls.port}`;
      const ran = await crawl(`${site.origin}/`);
      const deadUrls = [0, 1, 2].flatMap((p) => [...gone(noTls, p), `${untrusted}/secure${p}.ttl`]);
      expectEndedWithDeadOrigins(ran, deadUrls, [noTls, untrusted]);
      expect(tls.requests()).toBe(0); // the handshake failed: no request reached it
    } finally {
      await site.close();
      await tls.close();
    }
  }, 30_000);
});

describe('through a proxy that cannot tunnel https', () => {
  it('the https origins are dead, the http ones are crawled, no pause', async () => {
    const docs = Array.from({ length: 6 }, (_, i) => `http://a.example/d${i}.ttl`);
    const https = [...Array.from({ length: 4 }, (_, i) => `https://b.example/s${i}.ttl`), 'https://a.example/t0.ttl', 'https://a.example/t1.ttl'];
    const web = await startProxyWeb({ 'http://a.example/': linkPage('home', [...docs, ...https]), ...Object.fromEntries(docs.map((d) => [d, turtle(d)])) });
    // node:http drops a CONNECT nobody listens for: every https request fails at the connection level.
    try {
      const ran = await crawl('http://a.example/', { proxy: web.proxy });
      expect(ran.outages).toEqual([]);
      expect(ran.summary.stoppedBy).toBe('frontier-empty');
      expect(ran.records.filter((r) => r.outcome === 'ok').map((r) => r.url).sort()).toEqual(['http://a.example/', ...docs].sort());
      expect(ran.records.filter((r) => r.outcome === 'failed').map((r) => r.url).sort()).toEqual([...https].sort());
      expect((ran.summary.deadOrigins ?? []).map((d) => d.origin).sort()).toEqual(['https://a.example', 'https://b.example']);
    } finally {
      await web.close();
    }
  }, 30_000);
});

describe('the crawl command with a dead origin', () => {
  it('exits 0 and names the dead origin, in the text summary and in --json', async () => {
    const site = await startDeadLinkSite((_port, page) => gone('http://127.0.0.2:9', page));
    try {
      const args = ['crawl', `${site.origin}/`, '--strategy', 'bfs', '--allow-private', '--offsite-hops', '1', '--delay-ms', '0', '--quiet'];
      const out = join(folder.dir, `cli${n++}`);
      const text = await runCli([...args, '--out', out]);
      expect(text.code).toBe(0);
      expect(text.stderr).not.toMatch(/Network trouble/);
      expect(text.stdout).toMatch(/^Crawl stopped: no links left to fetch/);
      expect(text.stdout).toMatch(/1 origin gave no answer .*http:\/\/127\.0\.0\.2:9 \(/);
      // `stats` reads the same from the records.
      const stats = await runCli(['stats', out]);
      expect(stats.stdout).toMatch(/origins that gave no answer[^\n]*\n\s+http:\/\/127\.0\.0\.2:9\s+\d+ failures: robots\.txt of http:\/\/127\.0\.0\.2:9 is unavailable \(ECONNREFUSED/);
      const statsJson = JSON.parse((await runCli(['stats', out, '--json'])).stdout) as { deadOrigins: unknown };
      expect(statsJson.deadOrigins).toMatchObject([{ origin: 'http://127.0.0.2:9', answeredBefore: false }]);
      const json = await runCli([...args, '--json', '--out', join(folder.dir, `cli${n++}`)]);
      expect(json.code).toBe(0);
      const summary = JSON.parse(json.stdout) as CrawlSummary;
      expect(summary).toMatchObject({ stoppedBy: 'frontier-empty', rdfDocuments: SITE_RDF_DOCS, deadOrigins: [{ origin: 'http://127.0.0.2:9', answeredBefore: false }] });
    } finally {
      await site.close();
    }
  }, 60_000);
});

describe('an origin that stops answering while others answer', () => {
  it('has its URLs fail (no pause); the end summary says it answered earlier', async () => {
    // `b` serves its robots.txt and one document, then goes away (connections refused); `a` links ten of b's documents.
    let served = 0;
    const b = await startHttpServer((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      served += 1;
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://b.example/${served}> <http://b.example/p> "1" .\n`);
      if (served === 1) void b.close();
    });
    const bOrigin = `http://localhost:${b.port}`; // another PLD than 127.0.0.1
    const a = await startHttpServer((req, res) => {
      if (req.url === '/robots.txt') return res.writeHead(404).end();
      if (req.url === '/') {
        const links = Array.from({ length: 10 }, (_, i) => `<a href="${bOrigin}/b${i}.ttl">b${i}</a> <a href="/a${i}.ttl">a${i}</a>`).join(' ');
        return res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
      }
      res.writeHead(200, { 'content-type': 'text/turtle' }).end(`<http://a.example${req.url}> <http://a.example/p> "1" .\n`);
    });
    try {
      const ran = await crawl(`${a.origin}/`, { concurrency: 2, maxRetries: 1 });
      expect(ran.outages).toEqual([]);
      expect(ran.summary.stoppedBy).toBe('frontier-empty');
      const bRecords = ran.records.filter((r) => r.url.startsWith(bOrigin));
      expect(bRecords.filter((r) => r.outcome === 'ok')).toHaveLength(1);
      expect(bRecords.filter((r) => r.outcome === 'failed')).toHaveLength(9);
      expect(ran.records.filter((r) => r.url.startsWith(a.origin) && r.outcome === 'ok')).toHaveLength(11);
      expect(ran.summary.deadOrigins).toMatchObject([{ origin: bOrigin, answeredBefore: true }]);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});

/** An https server on 127.0.0.1 with a self-signed certificate made by openssl now (the fetcher does not trust it); call it in a test. */
async function startSelfSignedTls(): Promise<{ port: number; requests: () => number; close: () => Promise<void> }> {
  const certDir = await tempDir();
  const key = join(certDir, 'key.pem');
  const cert = join(certDir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  let requests = 0;
  const server = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'text/turtle' }).end('<http://s.example/a> <http://s.example/p> "1" .\n');
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
