// Read commands behave like Unix tools: no crawl → exit 1 and nothing created; argument
// errors in one line with a suggestion; `docs | head` and friends end quietly on a real pipe.
import { access, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFactory } from 'rdf-data-factory';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordKey, stageRecordWrite } from '../../src/crawl-log/record-store.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';
import { stageDocument } from '../../src/rdf/index.ts';
import { openState } from '../../src/state/open-state.ts';
import { runCli, runCliPiped } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';


describe('a folder without a crawl', () => {
  let tmp: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    tmp = folder.dir;
  });

  const commands: Array<[string, string[]]> = [
    ['stats', []],
    ['docs', []],
    ['export', []],
    ['metrics', []],
    ['links', ['--internal']],
    ['query', ['SELECT * WHERE { ?s ?p ?o }']],
  ];
  it('each read command exits 1 with "no crawl in DIR" and creates nothing (a missing folder, an empty one)', async () => {
    const empty = join(tmp, 'empty');
    await mkdir(empty);
    const results = await Promise.all(
      commands.flatMap(([name, extra]) => [join(tmp, 'missing'), empty].map(async (dir) => ({ name, dir, res: await runCli([name, dir, ...extra]) }))),
    );
    for (const { name, dir, res } of results) {
      expect({ name, code: res.code, stdout: res.stdout }).toEqual({ name, code: 1, stdout: '' });
      expect(res.stderr).toBe(`rdfscout ${name}: no crawl in ${dir} (give the --out folder of a crawl) [RDFSCOUT_NO_CRAWL]\n`);
    }
    await expect(access(join(tmp, 'missing'))).rejects.toThrow();
    expect(await readdir(empty)).toEqual([]);
  }, 120_000);
});

describe('argument errors', () => {
  it('are one line, with the nearest flag or command, and exit 2', async () => {
    const [flag, command, missing, value] = await Promise.all([
      runCli(['crawl', 'http://example.org/', '--out', 'x', '--max-doc', '3']),
      runCli(['stat', 'x']),
      runCli(['docs']),
      runCli(['crawl', '--out']),
    ]);
    expect(flag).toMatchObject({ code: 2, stdout: '', stderr: 'rdfscout crawl: unknown option --max-doc (did you mean --max-docs?); rdfscout crawl --help lists its options.\n' });
    expect(command).toMatchObject({ code: 2, stderr: 'rdfscout: unknown command "stat" (did you mean stats?); rdfscout --help lists the commands.\n' });
    expect(missing).toMatchObject({ code: 2, stderr: 'rdfscout docs: missing the crawl folder DIR; rdfscout docs --help lists its options.\n' });
    expect(value).toMatchObject({ code: 2, stderr: 'rdfscout crawl: --out needs a value; rdfscout crawl --help lists its options.\n' });
    const far = await runCli(['crawl', '--zzzzzz']);
    expect(far.stderr).toBe('rdfscout crawl: unknown option --zzzzzz; rdfscout crawl --help lists its options.\n');
  }, 60_000);
});

describe('output to a pipe whose reader stops early', () => {
  let tmp: string;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    tmp = folder.dir;
    dir = join(tmp, 'crawl');
    // A store with far more output than a pipe buffers (64 KiB): 4000 records, 20000 quads, 4000 link-table rows.
    const state = await openState(dir);
    try {
      const df = new DataFactory();
      const txn = state.txn();
      const quads = Array.from({ length: 20_000 }, (_, i) => df.quad(df.namedNode(`http://example.org/s${i}`), df.namedNode('http://example.org/p'), df.literal(`value number ${i}`)));
      stageDocument(state, txn, 'http://example.org/doc.ttl', quads);
      for (let seq = 1; seq <= 4000; seq++) {
        const url = `http://example.org/page/${seq}.html`;
        const record: CrawlRecord = {
          seq, url, finalUrl: url, status: 200, outcome: 'ok', contentType: 'text/html', detectedType: 'html', rdfFormat: null, parent: null, depth: 1,
          pld: 'example.org', triples: 0, linksQueued: 0, error: null, errorMessage: null, label: 'H', rules: [], redirects: [], ms: 1, fetchedAt: '2026-01-01T00:00:00.000Z',
        };
        stageRecordWrite(state, txn, record);
        txn.put(state.sub.links, `example.org!${recordKey(seq)}`, { url, site: 'example.org', page: 'http://example.org/', level: 1 });
      }
      await txn.commit();
    } finally {
      await state.close();
    }
  }, 60_000);

  for (const args of [['docs'], ['export'], ['links', '--internal']]) {
    it(`rdfscout ${args[0]} DIR | head -c 100 ends quietly, exit 0`, async () => {
      // exit 0 and nothing on stderr (no EPIPE stack, no "quads exported")
      expect(await runCliPiped([args[0] as string, dir, ...args.slice(1)], 'head -c 100')).toEqual({ code: 0, stderr: '' });
    }, 60_000);
  }

  it('the same commands print everything when read to the end', async () => {
    const docs = await runCli(['docs', dir]);
    expect(docs.stdout.trim().split('\n')).toHaveLength(4000);
    const exported = await runCli(['export', dir]);
    const lines = exported.stdout.trim().split('\n');
    expect(lines).toHaveLength(20_000); // the documents only: the crawl graph is left out by default
    expect(lines.every((l) => l.endsWith('<http://example.org/doc.ttl> .'))).toBe(true);
    const withLog = (await runCli(['export', dir, '--with-crawl-graph'])).stdout.trim().split('\n');
    expect(withLog.filter((l) => l.endsWith('<urn:rdfscout:crawl> .')).length).toBeGreaterThan(0); // then the crawl graph view
  }, 60_000);
});
