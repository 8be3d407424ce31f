// `rdfscout reparse` from the command line: flags named in its usage, a bad call refused (exit 2), a good one run.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WARCRecord, WARCSerializer } from 'warcio';
import { REPARSE_FLAGS, REPARSE_USAGE } from '../../src/commands/reparse.ts';
import { runCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

let tmp: string;
const folder = useTempDir({ per: 'file' });
beforeAll(async () => {
  tmp = folder.dir;
  const ttl = '<http://a.example/s> <http://a.example/p> "o" .\n';
  const record = WARCRecord.create({ url: 'http://a.example/data.ttl', type: 'response', httpHeaders: { 'Content-Type': 'text/turtle' } }, [new TextEncoder().encode(ttl)]);
  await writeFile(join(tmp, 'a.warc.gz'), await WARCSerializer.serialize(record, { gzip: true }));
});

describe('rdfscout reparse', () => {
  it('names every flag in its usage', () => {
    const missing = Object.keys(REPARSE_FLAGS).filter((f) => !new RegExp(`--${f}\\b`).test(REPARSE_USAGE));
    expect(missing).toEqual([]);
  });

  it('refuses a call without --warc (exit 2), and re-parses a WARC into a folder that export then reads', async () => {
    const bad = await runCli(['reparse', join(tmp, 'x')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--warc FILE\|DIR is required/);
    const out = join(tmp, 'store');
    const ok = await runCli(['reparse', out, '--warc', tmp, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ files: 1, records: 1, warnings: 0 });
    const exported = await runCli(['export', out]);
    expect(exported.stdout).toBe('<http://a.example/s> <http://a.example/p> "o" <http://a.example/data.ttl> .\n');
    const again = await runCli(['reparse', out, '--warc', tmp]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/holds a crawl already/);
  }, 60_000);
});
