// DeflateMember: one reused zlib state writes gzip members that gunzip back to each input, whatever its size.
import { randomBytes } from 'node:crypto';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ByteSink } from '../../src/warc/byte-sink.ts';
import { DeflateMember, GZIP_HEADER } from '../../src/warc/deflate-member.ts';

describe('DeflateMember', () => {
  it('writes one gzip member per input, each gunzipping to its input, with the state reused between them', () => {
    const deflate = new DeflateMember(1, { memLevel: 5, windowBits: 13 });
    // text that compresses, bytes that do not (larger than the sink's first buffer), an empty input, a long run
    const inputs = [Buffer.from('<http://a.example/s> <http://a.example/p> "o" .\n'.repeat(100)), randomBytes(300_000), Buffer.alloc(0), Buffer.alloc(1_000_000, 120), randomBytes(5_000)];
    const out = new ByteSink(1024);
    const ends: number[] = [];
    for (const input of inputs) {
      deflate.append(input, out);
      ends.push(out.length);
    }
    deflate.close();
    expect(gunzipSync(out.view()).equals(Buffer.concat(inputs))).toBe(true); // the members in a row: one gzip file
    let start = 0;
    for (const [i, input] of inputs.entries()) {
      const member = out.view(start, ends[i]);
      expect(gunzipSync(member).equals(input), `member ${i}`).toBe(true); // each a member of its own (a reset state)
      expect(member.subarray(0, GZIP_HEADER.length).equals(GZIP_HEADER)).toBe(true);
      expect(inflateRawSync(member.subarray(GZIP_HEADER.length, member.length - 8)).equals(input)).toBe(true);
      start = ends[i] as number;
    }
    expect(out.length).toBeLessThan(300_000 + 5_000 + 20_000); // compressible inputs were compressed
  });
});
