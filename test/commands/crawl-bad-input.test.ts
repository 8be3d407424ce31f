// Bad input to `rdfscout crawl` gets a clear refusal and creates nothing; a crawl with no usable seed does not start.
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCrawlCommand } from '../../src/commands/crawl.ts';
import { Crawler } from '../../src/crawl/crawler.ts';
import { runCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('rdfscout crawl with bad input', () => {
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
  });

  const seed = 'http://example.org/';
  const cases: { args: string[]; says: RegExp }[] = [
    { args: [seed, '--strategy', 'fcr'], says: /--strategy must be one of .*\(got fcr\)/ },
    { args: [seed, '--bandit', 'ucb'], says: /--bandit must be one of none, round-robin/ },
    { args: [seed, '--reward', 'pages'], says: /--reward must be one of/ },
    { args: [seed, '--max-docs', '0'], says: /--max-docs must be a whole number ≥ 1 \(got 0\)/ },
    { args: [seed, '--rdf-share', '2'], says: /--rdf-share must be a number from 0 to 1/ },
    { args: [seed, '--include', '/(/'], says: /include|pattern|regular expression/i },
    { args: [seed, '--proxy', 'ftp://127.0.0.1:21'], says: /--proxy must be an http:\/\/ URL/ },
    { args: [seed, '--scope', 'wide'], says: /--scope must be one of seeds, open/ },
    { args: ['ftp://example.org/'], says: /Seed "ftp:\/\/example.org\/" is not http\(s\)/ },
    { args: ['http://exa mple.org/'], says: /is not a URL or a domain name/ },
    { args: [seed, '--serve-token', 'short'], says: /--serve-token must be at least 8 characters/ },
    { args: [seed, '--warc-gzip-level', '12'], says: /--warc-gzip-level must be a whole number from 0 to 9/ },
    { args: [], says: /No seeds: give seed URLs/ },
    // refused before Redis is asked anything (nothing listens on port 9: connecting would fail with another message)
    { args: [seed, '--redis', 'redis://127.0.0.1:9', '--retry-failed'], says: /--retry-failed needs a crawl run by one process/ },
  ];

  it('refuses each bad argument, naming it, and leaves no --out folder', async () => {
    for (const [i, { args, says }] of cases.entries()) {
      const out = join(dir, `bad${i}`);
      await expect(runCrawlCommand([...args, '--out', out]), args.join(' ')).rejects.toThrow(says);
      expect(await exists(out), `crawl ${args.join(' ')} created its --out folder`).toBe(false);
    }
  });

  it('on the command line: exit 2 and one line that says what is wrong', async () => {
    const picked = [0, 8, 12].map((i) => cases[i]!);
    const results = await Promise.all(picked.map((c, i) => runCli(['crawl', ...c.args, '--out', join(dir, `cli${i}`)])));
    for (const [i, res] of results.entries()) {
      expect({ args: picked[i]!.args, code: res.code }).toEqual({ args: picked[i]!.args, code: 2 });
      expect(res.stderr).toMatch(picked[i]!.says);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(await exists(join(dir, `cli${i}`))).toBe(false);
    }
    expect(results[0]!.stderr).toContain('(did you mean fc-r?)');
  }, 60_000);

  it('does not start a crawl none of whose seeds may be fetched, and says why', async () => {
    const file = join(dir, 'seeds.txt');
    await writeFile(file, 'http://localhost:8080/\nhttp://10.1.2.3/data/\n');
    const [args, fromFile] = await Promise.all([
      runCli(['crawl', 'http://localhost/', 'http://10.1.2.3/', 'http://[::1]/', '--out', join(dir, 'private')]),
      runCli(['crawl', '--seeds-file', file, '--out', join(dir, 'private-file')]),
    ]);
    for (const res of [args, fromFile]) {
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('No usable seed: every seed was refused');
      expect(res.stderr).toMatch(/use --allow-private to allow it/);
    }
    expect(args.stderr).toMatch(/localhost is this machine/);
    expect(args.stderr).toMatch(/10\.1\.2\.3 is not a public address/);
    expect(fromFile.stderr).toContain('http://localhost:8080/');
    expect(await exists(join(dir, 'private'))).toBe(false);
    expect(await exists(join(dir, 'private-file'))).toBe(false);
  }, 60_000);

  it('does not start from a seeds file none of whose lines gives a seed', async () => {
    const file = join(dir, 'junk.txt');
    await writeFile(file, '%%% not a seed\nmailto:someone@example.org\n');
    const res = await runCli(['crawl', '--seeds-file', file, '--out', join(dir, 'junk')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}:1: no URL or domain name on this line`);
    expect(res.stderr).toContain(`No usable seed: no line of --seeds-file ${file} gave a seed`);
    expect(await exists(join(dir, 'junk'))).toBe(false);
  }, 30_000);

  it('through the API too: opening a new crawl whose every seed is refused throws', async () => {
    await expect(Crawler.open({ out: join(dir, 'api'), seeds: ['http://127.0.0.1/', 'http://192.168.0.1/'] })).rejects.toMatchObject({
      code: 'RDFSCOUT_INVALID_ARGUMENT',
      message: expect.stringContaining('No usable seed'),
    });
    // with one fetchable seed it opens, and the refused one is reported
    const crawler = await Crawler.open({ out: join(dir, 'api2'), seeds: ['http://127.0.0.1/', 'http://example.org/'] });
    try {
      expect(crawler.refusedSeeds.map((r) => r.url)).toEqual(['http://127.0.0.1/']);
    } finally {
      await crawler.close();
    }
  });
});
