// readBody: the identity read (stream events) and the decoding read (pipeline) keep the same limits, errors and
// clean-up (the identity path no longer runs async generators).
import { PassThrough, Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBody, type ReadBodyOptions } from '../../src/fetch/body-reader.ts';

const url = 'http://example.test/doc';
const opts = (o: Partial<ReadBodyOptions> = {}): ReadBodyOptions => ({ contentEncoding: null, maxBodyBytes: 1_000, maxDecompressedBytes: 1_000, url, ...o });
const chunks = (...texts: string[]) => texts.map((t) => Buffer.from(t));

describe('readBody, identity', () => {
  it('joins the chunks and shows each raw chunk to onChunk, in order', async () => {
    const seen: string[] = [];
    const body = await readBody(Readable.from(chunks('ab', 'cd', 'e')), opts({ onChunk: (c) => seen.push(c.toString()) }));
    expect(body.toString()).toBe('abcde');
    expect(seen).toEqual(['ab', 'cd', 'e']);
  });

  it('reads an empty body', async () => {
    expect((await readBody(Readable.from([]), opts())).length).toBe(0);
  });

  it('stops at the wire limit: RDFSCOUT_BODY_TOO_LARGE, onLimit told, the source destroyed', async () => {
    const source = new PassThrough();
    let limited = 0;
    const read = readBody(source, opts({ maxBodyBytes: 5, onLimit: () => limited++ }));
    source.write('abc');
    source.write('def'); // 6 > 5
    await expect(read).rejects.toMatchObject({ code: 'RDFSCOUT_BODY_TOO_LARGE' });
    expect(limited).toBe(1);
    expect(source.destroyed).toBe(true);
  });

  it('a body of exactly the limit is read whole', async () => {
    expect((await readBody(Readable.from(chunks('abc', 'de')), opts({ maxBodyBytes: 5, maxDecompressedBytes: 5 }))).toString()).toBe('abcde');
  });

  it('stops at the kept-bytes limit with the body error when not truncating', async () => {
    const source = Readable.from(chunks('abc', 'def'));
    await expect(readBody(source, opts({ maxDecompressedBytes: 4 }))).rejects.toMatchObject({ code: 'RDFSCOUT_BODY_TOO_LARGE', message: expect.stringContaining('4 bytes') });
    expect(source.destroyed).toBe(true);
  });

  it('truncates quietly at the kept-bytes limit (robots.txt) and destroys the rest of the source', async () => {
    const source = new PassThrough();
    let limited = 0;
    const read = readBody(source, opts({ maxDecompressedBytes: 4, truncate: true, onLimit: () => limited++ }));
    source.write('abc');
    source.write('def');
    expect((await read).toString()).toBe('abcd');
    expect(limited).toBe(1);
    expect(source.destroyed).toBe(true);
  });

  it("rejects with the source's own error (a timeout, a reset) as it is", async () => {
    const source = new PassThrough();
    const read = readBody(source, opts());
    source.write('abc');
    const err = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    source.destroy(err);
    await expect(read).rejects.toBe(err);
  });

  it('rejects when the source closes before its end (ERR_STREAM_PREMATURE_CLOSE)', async () => {
    const source = new PassThrough();
    const read = readBody(source, opts());
    source.write('abc');
    source.destroy();
    await expect(read).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('a throwing onChunk ends the read with its error and destroys the source', async () => {
    const source = new PassThrough();
    const boom = new Error('warc writer failed');
    const read = readBody(source, opts({ onChunk: () => { throw boom; } }));
    source.write('abc');
    await expect(read).rejects.toBe(boom);
    expect(source.destroyed).toBe(true);
  });

  it('reads a paused source that already buffered data before the read began', async () => {
    const source = new PassThrough();
    source.write('early ');
    const read = readBody(source, opts());
    source.end('late');
    expect((await read).toString()).toBe('early late');
  });
});

describe('readBody, decoding', () => {
  it('gzip: the wire limit counts compressed bytes, the other limit decoded ones (a bomb stops early)', async () => {
    const text = 'x'.repeat(10_000);
    const gz = gzipSync(text);
    expect((await readBody(Readable.from([gz]), opts({ contentEncoding: 'gzip', maxBodyBytes: gz.length, maxDecompressedBytes: 10_000 }))).toString()).toBe(text);
    await expect(readBody(Readable.from([gz]), opts({ contentEncoding: 'gzip', maxBodyBytes: gz.length, maxDecompressedBytes: 9_999 }))).rejects.toMatchObject({ code: 'RDFSCOUT_DECOMPRESSED_TOO_LARGE' });
  });
});
