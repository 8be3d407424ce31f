// The dashboard's JSON API and controls over a real crawl of the simulated web (no browser): seeds added and PLDs
// blocked while it runs, the links --max-links-per-doc cut, who may steer it, the event stream, and BeeBot's link tables with filters and CSV.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import type { LiveStatus } from '../../src/dashboard/index.ts';
import { type LiveCrawl, startLiveCrawl } from '../helpers/live-crawl.ts';
import { until } from '../helpers/until.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

async function post(live: LiveCrawl, action: string, body: unknown = {}, headers: Record<string, string> = JSON_TYPE) {
  const res = await request(`${live.base}api/control/${action}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

async function get<T>(live: LiveCrawl, path: string): Promise<T> {
  return (await (await request(`${live.base}${path}`)).body.json()) as T;
}

async function records(live: LiveCrawl): Promise<CrawlRecord[]> {
  const out: CrawlRecord[] = [];
  for await (const r of readRecords(live.crawler.state)) out.push(r);
  return out;
}

describe('dashboard API and controls', () => {
  let live: LiveCrawl | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  it('adds seeds (a new PLD joins the crawl) and blocks a PLD (nothing more fetched from it)', async () => {
    live = await startLiveCrawl({ delayMs: 20, seedSites: 3 });
    const [a, b, c, d] = live.web.sites;
    await until('11 fetches', async () => (await get<LiveStatus>(live!, 'api/status')).fetched > 10);
    expect((await records(live)).some((r) => r.pld === d!.pld)).toBe(false);

    const bad = await post(live, 'seeds', { urls: ['not a url'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Not an absolute URL/);
    const added = await post(live, 'seeds', { urls: [d!.startUrl] });
    expect(added.status).toBe(200);
    await until('a record of the added seed\'s PLD', async () => (await records(live!)).some((r) => r.pld === d!.pld));

    const blocked = await post(live, 'block', { pld: `http://${a!.host}/x` });
    expect(blocked.body.blocked).toBe(a!.pld);
    // Whatever was in flight for it when blocked lands (under load a fetch can outlast any fixed wait: wait until the
    // PLD has none in flight); after that, no new record of the PLD.
    await new Promise((r) => setTimeout(r, 300));
    // The tally counts a fetch when it leaves the in-flight count, before its record is committed: count there.
    await until('no fetch of the blocked PLD in flight', async () => ((await get<Array<{ pld: string; inFlight: number }>>(live!, 'api/plds')).find((p) => p.pld === a!.pld)?.inFlight ?? 0) === 0);
    const before = live.crawler.tally.perPld.get(a!.pld)?.fetched ?? 0;
    const fetchedBefore = live.crawler.tally.fetched;
    await until('20 fetches after the block', () => live!.crawler.tally.fetched > fetchedBefore + 20);
    expect((await records(live)).filter((r) => r.pld === a!.pld).length).toBe(before);
    const row = (await get<Array<{ pld: string; blocked: boolean }>>(live, 'api/plds')).find((p) => p.pld === a!.pld);
    expect(row?.blocked).toBe(true);
    expect((await records(live)).filter((r) => r.pld === b!.pld || r.pld === c!.pld).length).toBeGreaterThan(0);
  }, 60_000);

  it('says how many links --max-links-per-doc cut, as the crawl\'s summary does', async () => {
    live = await startLiveCrawl({ delayMs: 0, maxDocs: 40, crawl: { maxLinksPerDoc: 2 } });
    const summary = await live.run;
    const status = await get<LiveStatus>(live, 'api/status');
    expect(summary.linksBeyondCap).toBeGreaterThan(0);
    expect(status.linksBeyondCap).toBe(summary.linksBeyondCap);
    expect(status.documentsWithLinksCut).toBe(summary.documentsWithLinksCut);
    const cut = (await records(live)).filter((r) => (r.linksBeyondCap ?? 0) > 0);
    expect(status.documentsWithLinksCut).toBe(cut.length);
    expect(status.linksBeyondCap).toBe(cut.reduce((n, r) => n + (r.linksBeyondCap ?? 0), 0));
  }, 30_000);

  it('refuses controls that are not JSON, from another origin, or without the token when one is set', async () => {
    live = await startLiveCrawl({ token: 'sesame-open-42' });
    expect((await post(live, 'pause', {}, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(live, 'pause', {}, { ...JSON_TYPE, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(live, 'pause')).status).toBe(401);
    expect((await post(live, 'pause', {}, { ...JSON_TYPE, authorization: 'Bearer wrong-token-00' })).status).toBe(401);
    expect(live.control.paused).toBe(false);
    const ok = await post(live, 'pause', {}, { ...JSON_TYPE, authorization: 'Bearer sesame-open-42' });
    expect(ok.status).toBe(200);
    expect((ok.body.status as LiveStatus).paused).toBe(true);
    expect(live.control.paused).toBe(true);
    expect((await request(`${live.base}api/control/pause`)).statusCode).toBe(405);
  }, 30_000);

  it('streams a snapshot then deltas over SSE, and closes the stream on shutdown', async () => {
    live = await startLiveCrawl({ tickMs: 100 });
    const res = await request(`${live.base}api/events`);
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    let text = '';
    const events: string[] = [];
    const reading = (async () => {
      for await (const chunk of res.body) {
        text += chunk.toString();
        for (const m of text.matchAll(/event: (\w+)\n/g)) events.push(m[1]!);
        text = text.slice(text.lastIndexOf('\n\n') + 2);
      }
    })();
    await until('3 delta events', () => events.filter((e) => e === 'delta').length >= 3);
    expect(events[0]).toBe('snapshot');
    await live.shutdown(); // the stream ends (with a 'bye' event): the reader finishes
    await reading;
    expect(events.at(-1)).toBe('bye');
  }, 30_000);

});
