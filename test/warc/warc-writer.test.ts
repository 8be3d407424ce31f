// WarcWriter's records: framed as WARC 1.1, one gzip member each, with digests as warcio computes them; folders rotate.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { HeadersMultiMap, StatusAndHeaders, WARCParser, WARCRecord, WARCSerializer } from 'warcio';
import type { HttpExchange } from '../../src/fetch/types.ts';
import { exchangeRecords, WarcWriter } from '../../src/warc/index.ts';
import { headText } from '../../src/warc/warc-records.ts';
import { storedGzip } from '../../src/warc/warc-writer.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const exchange = (i: number): HttpExchange => ({
  fetchId: `f${i}`,
  url: `http://a.example/doc/${i}?x=1`,
  requestHeaders: { accept: 'text/turtle', 'user-agent': 'rdfscout/0.1' },
  date: '2026-11-23T14:00:00.000Z',
  status: 200,
  statusText: 'OK',
  headers: { 'content-type': 'text/turtle', 'transfer-encoding': 'chunked' },
  body: [Buffer.from(`<http://a.example/s${i}> <http://a.example/p> "é ${'x'.repeat(2000)}" .\n`)],
  truncated: null,
});

let tmp: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
});

describe('WarcWriter', () => {
  it("frames heads as warcio's StatusAndHeaders does", () => {
    for (const x of [exchange(1), { ...exchange(2), headers: {}, statusText: '' }, { ...exchange(3), url: 'http://u:p@a.example:8080/doc/3?x=1#frag' }]) {
      const [request, response] = exchangeRecords(x);
      const url = new URL(x.url);
      const requestHead = { statusline: `GET ${url.pathname}${url.search} HTTP/1.1`, headers: [['host', url.host], ...Object.entries(x.requestHeaders)] };
      const responseHead = { statusline: `HTTP/1.1 ${x.status} ${x.statusText}`.trimEnd(), headers: Object.entries(x.headers).filter(([name]) => name !== 'transfer-encoding') };
      for (const [r, head] of [
        [request, requestHead],
        [response, responseHead],
      ] as const) {
        const theirs = new StatusAndHeaders({ statusline: head.statusline, headers: new HeadersMultiMap(head.headers.map(([k, v]) => [k as string, v as string])) }).toString();
        expect(r.httpHead).toBe(`${theirs}\r\n`);
      }
    }
    expect(headText('HTTP/1.1 200 OK', { a: '1', b: '2' }, 'a', 'x: 0\r\n')).toBe('HTTP/1.1 200 OK\r\nx: 0\r\nb: 2\r\n\r\n');
  });

  it('writes records warcio reads back, with the digests warcio computes, one gzip member per record', async () => {
    const file = join(tmp, 'one.warc.gz');
    const writer = await WarcWriter.open({ target: file, info: { note: 'test' } });
    writer.write(exchangeRecords(exchange(1)));
    await writer.close();
    const records = [];
    for await (const r of new WARCParser(createReadStream(file))) {
      const payload = await r.readFully(false);
      records.push({ type: r.warcType, uri: r.warcTargetURI, payload: Buffer.from(payload).toString('utf8'), record: r, digest: r.warcHeader('WARC-Payload-Digest') });
    }
    expect(records.map((r) => r.type)).toEqual(['warcinfo', 'request', 'response']);
    const response = records[2];
    expect(response?.payload).toBe(Buffer.concat(exchange(1).body).toString('utf8'));
    expect(response?.record.httpHeaders?.headers.get('transfer-encoding')).toBeNull(); // the stored body is not chunked
    expect(records[1]?.record.warcHeader('WARC-Concurrent-To')).toBe(response?.record.warcHeader('WARC-Record-ID'));
    expect(records[1]?.record.httpHeaders?.statusline).toBe('GET /doc/1?x=1 HTTP/1.1');
    // warcio computes the same payload digest for the same payload (sha1, base32)
    const again = WARCRecord.create({ url: 'http://a.example/', type: 'resource' }, exchange(1).body);
    await WARCSerializer.serialize(again, { digest: { algo: 'sha-1', prefix: 'sha1:', base32: true } });
    expect(response?.digest).toBe(again.warcPayloadDigest);
    // Each record is a gzip member of its own: the file is their concatenation.
    const text = gunzipSync(await readFile(file)).toString('utf8');
    expect(text.match(/^WARC\/1\.1\r\n/gm)).toHaveLength(3);
  });

  it('rotates files in a folder past the size limit, each begun with warcinfo; refuses a target it cannot write', async () => {
    const dir = join(tmp, 'rot/');
    const writer = await WarcWriter.open({ target: dir, maxFileBytes: 3000 });
    for (let i = 0; i < 6; i++) writer.write(exchangeRecords(exchange(i)));
    await writer.close();
    const files = (await readdir(dir)).sort();
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) expect(gunzipSync(await readFile(join(dir, f))).toString('utf8')).toMatch(/^WARC\/1\.1\r\nWARC-Type: warcinfo/);
    await writeFile(join(tmp, 'plain'), 'x');
    await expect(WarcWriter.open({ target: join(tmp, 'plain', 'sub.warc.gz') })).rejects.toMatchObject({ code: 'RDFSCOUT_WARC_FAILED' });
  });
});

describe('storedGzip (--warc-gzip-level 0)', () => {
  it('builds gzip members that zlib and warcio read back, for empty, small and multi-block records', async () => {
    for (const size of [0, 10, 65_535, 65_536, 200_000]) {
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i++) data[i] = (i * 7919) & 0xff;
      const parts = [data.subarray(0, size >> 1), data.subarray(size >> 1)];
      expect(gunzipSync(storedGzip(parts)).equals(data), `size ${size}`).toBe(true);
    }
    const file = join(tmp, 'stored.warc.gz');
    const writer = await WarcWriter.open({ target: file, gzipLevel: 0 });
    writer.write(exchangeRecords(exchange(3)));
    await writer.close();
    const payloads: string[] = [];
    for await (const r of new WARCParser(createReadStream(file))) payloads.push(Buffer.from(await r.readFully(false)).toString('utf8'));
    expect(payloads).toHaveLength(3);
    expect(payloads[2]).toBe(Buffer.concat(exchange(3).body).toString('utf8'));
  });
});

/** `sha1:BASE32` of `bytes`, computed here apart from the writer (RFC 4648 base32). */
function sha1Base32(bytes: Buffer): string {
  const d = createHash('sha1').update(bytes).digest();
  let bits = '';
  for (const b of d) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[Number.parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return `sha1:${out}`;
}

/** The records of a gunzipped WARC file, split by their Content-Length: named fields, block, payload after the HTTP head. */
function splitRecords(data: Buffer): { fields: Map<string, string>; block: Buffer; payload: Buffer }[] {
  const out = [];
  let at = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    const lines = data.subarray(at, headEnd).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('WARC/1.1');
    const fields = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)] as [string, string]));
    const block = data.subarray(headEnd + 4, headEnd + 4 + Number(fields.get('Content-Length')));
    expect(data.subarray(headEnd + 4 + block.length, headEnd + 8 + block.length).toString()).toBe('\r\n\r\n');
    const httpEnd = block.indexOf('\r\n\r\n');
    out.push({ fields, block, payload: fields.get('WARC-Type') === 'response' ? block.subarray(httpEnd + 4) : Buffer.alloc(0) });
    at = headEnd + 8 + block.length;
  }
  return out;
}

describe('digests and gzip members at every level', () => {
  it('writes valid block and payload digests, and the exact bytes, for empty, small and over-64-kB bodies, at levels 0, 1 and 6', async () => {
    const big = Buffer.alloc(150_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
    const bodies = [[], [Buffer.from('é small body')], [big.subarray(0, 70_000), big.subarray(70_000)], [Buffer.alloc(600, 'a')], [Buffer.alloc(3000, 'b')]];
    const sizes: number[] = [];
    for (const level of [0, 1, 6]) {
      const file = join(tmp, `digests-${level}.warc.gz`);
      const writer = await WarcWriter.open({ target: file, gzipLevel: level });
      for (const [i, body] of bodies.entries()) void writer.write(exchangeRecords({ ...exchange(i), body, truncated: body.length === 0 ? 'unspecified' : null }));
      await writer.close();
      const bytes = await readFile(file);
      sizes.push(bytes.length);
      const records = splitRecords(gunzipSync(bytes));
      expect(records.map((r) => r.fields.get('WARC-Type'))).toEqual(['warcinfo', ...bodies.flatMap(() => ['request', 'response'])]);
      for (const r of records.slice(1)) {
        expect(r.fields.get('WARC-Block-Digest'), `level ${level}`).toBe(sha1Base32(r.block));
        if (r.fields.get('WARC-Type') === 'response') expect(r.fields.get('WARC-Payload-Digest')).toBe(sha1Base32(r.payload));
      }
      const payloads = records.filter((r) => r.fields.get('WARC-Type') === 'response').map((r) => r.payload);
      for (const [i, body] of bodies.entries()) expect(payloads[i]?.equals(Buffer.concat(body)), `level ${level} body ${i}`).toBe(true);
      // warcio reads every record back, one gzip member each
      let n = 0;
      for await (const r of new WARCParser(createReadStream(file))) {
        await r.readFully(false);
        n++;
      }
      expect(n).toBe(records.length);
    }
    // Level 0 stores everything; levels 1 and 6 deflate the response records of 1 kB or more (the 3 kB of 'b's).
    expect(sizes[1]).toBeLessThan((sizes[0] as number) - 2500);
    expect(sizes[2]).toBeLessThan((sizes[0] as number) - 2500);
  });
});
