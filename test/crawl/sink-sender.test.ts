// The `--sink` sender: the crawl never waits for the sink, at most `concurrency` documents are in flight,
// a mark is written with each stored document and removed only when the sink acknowledges it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/crawl/crawler.ts';
import { countSinkMarks } from '../../src/crawl/sink-marks.ts';
import { SinkSender } from '../../src/crawl/sink-sender.ts';
import { GraphStoreSink } from '../../src/sink/index.ts';
import { startHttpServer, type TestServer } from '../helpers/http-server.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

let site: TinySite;
let sink: TestServer;
let tmp: string;
/** PUTs the sink holds unanswered until the test releases them. */
const held: Array<{ graph: string; body: string; answer: () => void }> = [];
let maxHeld = 0;
/** Every PUT received. */
let puts = 0;
/** Wakes a test waiting for the sink to hold `n` requests. */
let onHeld: () => void = () => {};

const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
  site = await startTinySite();
  sink = await startHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const c of req) body += String(c);
    const graph = new URL(req.url ?? '/', 'http://x').searchParams.get('graph') ?? '';
    puts++;
    held.push({ graph, body, answer: () => res.writeHead(204).end() });
    maxHeld = Math.max(maxHeld, held.filter((h) => h.answer !== undefined).length);
    onHeld();
  });
});

afterAll(async () => {
  await sink?.close();
  await site?.close();
});

describe('SinkSender in a crawl', () => {
  it('lets the crawl finish while the sink answers nothing; sends each stored document once the sink answers', async () => {
    const out = join(tmp, 'crawl');
    const sender = new SinkSender(new GraphStoreSink(`${sink.origin}/store`, { attempts: 1 }), { concurrency: 2, delayMs: 0 });
    const crawler = await Crawler.open({ out, seeds: [`${site.base}/`], delayMs: 0, allowPrivate: true, maxDocs: 50 }, { hooks: [sender] });
    sender.start(crawler.state);
    try {
      const summary = await crawler.run(); // the sink has answered nothing so far: the crawl did not wait for it
      const stored = summary.rdfDocuments + summary.embeddedDocuments;
      expect(stored).toBeGreaterThan(2);
      expect(await countSinkMarks(crawler.state)).toBe(stored); // a mark per stored document, none removed yet
      await new Promise<void>((resolve) => {
        onHeld = () => held.length >= 2 && resolve();
        onHeld();
      });
      expect(held).toHaveLength(2); // bounded: two in flight, the rest waits in the store as marks
      // Answer every PUT as it comes; finish() sends the rest and reports.
      const answered = new Set<string>();
      const answerAll = () => {
        for (const h of held.splice(0)) {
          answered.add(h.graph);
          h.answer();
        }
      };
      onHeld = answerAll;
      answerAll();
      const outcome = await sender.finish();
      expect(outcome).toMatchObject({ sent: stored, pending: 0, refused: [], unreachable: null });
      expect({ graphs: answered.size, puts }).toEqual({ graphs: stored, puts: stored }); // each document once
      expect(maxHeld).toBeLessThanOrEqual(2);
      expect(await countSinkMarks(crawler.state)).toBe(0);
    } finally {
      await sender.finish();
      await crawler.close();
    }
  }, 60_000);
});
