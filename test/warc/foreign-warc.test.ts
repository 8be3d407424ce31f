// A WARC written by another tool (warcio's own writer, uncompressed, chunked bodies kept) is read and re-parsed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WARCRecord, WARCSerializer } from 'warcio';
import { reparseArchive } from '../../src/crawl/reparse.ts';
import { readRecords } from '../../src/crawl-log/record-store.ts';
import { openState } from '../../src/state/open-state.ts';
import { readArchive } from '../../src/warc/index.ts';
import { exportedLines } from '../helpers/export-text.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const SITE = 'http://lod.example';
const TTL = `<${SITE}/id/alice> <http://xmlns.com/foaf/0.1/name> "Alice" .\n<${SITE}/id/alice> <http://xmlns.com/foaf/0.1/knows> <${SITE}/id/bob> .\n`;
const PAGE = `<html><head><script type="application/ld+json">{"@context":{"@vocab":"http://schema.org/"},"@id":"${SITE}/id/bob","name":"Bob"}</script></head><body><a href="/id/alice">Alice</a></body></html>`;

/** `text` in HTTP/1.1 chunked transfer coding, as a tool that keeps the wire bytes stores it. */
function chunked(text: string): string {
  const half = Math.floor(text.length / 2);
  return [text.slice(0, half), text.slice(half)].map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';
}

async function response(url: string, statusline: string, httpHeaders: Record<string, string>, body: string): Promise<Uint8Array> {
  const record = WARCRecord.create({ url, type: 'response', warcVersion: 'WARC/1.0', statusline, httpHeaders }, [new TextEncoder().encode(body)]);
  return WARCSerializer.serialize(record);
}

let tmp: string;
let file: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
  file = join(tmp, 'other-tool.warc');
  const info = await WARCSerializer.serialize(WARCRecord.createWARCInfo({ filename: 'other-tool.warc', warcVersion: 'WARC/1.0' }, { software: 'another crawler' }));
  const request = await WARCSerializer.serialize(WARCRecord.create({ url: `${SITE}/`, type: 'request', statusline: 'GET / HTTP/1.1', httpHeaders: { Host: 'lod.example' } }, []));
  const parts = [
    info,
    request,
    await response(`${SITE}/`, 'HTTP/1.1 200 OK', { 'Content-Type': 'text/html; charset=utf-8' }, PAGE),
    await response(`${SITE}/id/alice`, 'HTTP/1.1 303 See Other', { Location: '/data/alice.ttl', 'Content-Length': '0' }, ''),
    await response(`${SITE}/data/alice.ttl`, 'HTTP/1.1 200 OK', { 'Content-Type': 'text/turtle', 'Transfer-Encoding': 'chunked' }, chunked(TTL)),
    await response(`${SITE}/missing`, 'HTTP/1.1 404 Not Found', { 'Content-Type': 'text/plain' }, 'gone'),
  ];
  await writeFile(file, Buffer.concat(parts.map((p) => Buffer.from(p))));
});

describe('a WARC of another tool', () => {
  it('is read: responses with their headers, chunked bodies de-chunked', async () => {
    const items = [];
    for await (const item of readArchive([file])) items.push(item);
    const responses = items.filter((i) => i.kind === 'response');
    expect(responses.map((r) => [r.url, r.status])).toEqual([
      [`${SITE}/`, 200],
      [`${SITE}/id/alice`, 303],
      [`${SITE}/data/alice.ttl`, 200],
      [`${SITE}/missing`, 404],
    ]);
    const ttl = responses[2];
    expect(ttl?.body.toString('utf8')).toBe(TTL);
    expect(ttl?.headers['transfer-encoding']).toBeUndefined();
    expect(items.filter((i) => i.kind === 'problem')).toEqual([]);
  });

  it('is re-parsed: documents stored (graph = final URL), redirects joined, labels judged from the pages before', async () => {
    const out = join(tmp, 'store');
    const summary = await reparseArchive({ out, warc: [file] });
    expect(summary).toMatchObject({ files: 1, records: 3, warnings: 0 });
    const nq = (await exportedLines(out)).join('\n');
    const state = await openState(out);
    try {
      expect(nq).toContain(`<${SITE}/id/alice> <http://xmlns.com/foaf/0.1/name> "Alice" <${SITE}/data/alice.ttl> .`);
      expect(nq).toContain(`<${SITE}/id/bob> <http://schema.org/name> "Bob" <${SITE}/> .`);
      const records = [];
      for await (const r of readRecords(state)) records.push(r);
      expect(records.map((r) => [r.url, r.finalUrl, r.status, r.outcome, r.triples, r.depth])).toEqual([
        [`${SITE}/`, `${SITE}/`, 200, 'ok', 1, 0],
        [`${SITE}/id/alice`, `${SITE}/data/alice.ttl`, 200, 'ok', 2, 1],
        [`${SITE}/missing`, `${SITE}/missing`, 404, 'http-error', 0, 0],
      ]);
      expect(records[1]?.redirects).toEqual([{ from: `${SITE}/id/alice`, to: `${SITE}/data/alice.ttl`, status: 303 }]);
      expect(records[1]?.parent).toBe(`${SITE}/`); // the link found on the page archived before it
      expect(records[1]?.label).not.toBeNull();
    } finally {
      await state.close();
    }
  });
});
