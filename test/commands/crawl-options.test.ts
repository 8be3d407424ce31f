// The crawl options are described once: the parser, `crawl --help`, the defaults and docs/options.md all come from
// the specs, and cannot drift apart.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POLICY_NAMES } from '../../src/bandit/index.ts';
import { CRAWL_FLAGS, CRAWL_USAGE, crawlOptionsFromArgs } from '../../src/commands/crawl.ts';
import { optionsMarkdown } from '../../src/commands/option-help.ts';
import { describeConflicts, identityConflicts, keptNetworkOptions, loadCrawlOptions, saveCrawlOptions } from '../../src/crawl/crawl-meta.ts';
import { CRAWL_OPTION_SPECS } from '../../src/crawl/crawl-option-specs.ts';
import { DEFAULT_CRAWL_OPTIONS, IDENTITY_KEYS, NETWORK_KEYS, resolveCrawlOptions, storableOptions } from '../../src/crawl/options.ts';
import { STRATEGY_NAMES } from '../../src/strategies/index.ts';
import { useTempState } from '../helpers/temp-state.ts';

describe('crawl --help and docs/options.md', () => {
  it('the committed docs/options.md is what npm run docs:options writes', async () => {
    const committed = await readFile(join(import.meta.dirname, '../../docs/options.md'), 'utf8');
    expect(committed, 'docs/options.md is stale: run npm run docs:options').toBe(optionsMarkdown());
  });

  it('names every strategy and every bandit policy', () => {
    const missing = [...STRATEGY_NAMES, ...POLICY_NAMES, 'none'].filter((name) => !new RegExp(`(^|[\\s|:])${name.replace(/[+]/g, '\\+')}([\\s|.,;)]|$)`, 'm').test(CRAWL_USAGE));
    expect(missing).toEqual([]);
    expect(CRAWL_USAGE).toMatch(/\byield\b/);
  });

  it('lists every flag the parser accepts, and docs/options.md does too', () => {
    const md = optionsMarkdown();
    for (const flag of Object.keys(CRAWL_FLAGS)) {
      expect(CRAWL_USAGE).toMatch(new RegExp(`--${flag}\\b`));
      expect(md).toContain(`\`--${flag}`);
    }
    for (const s of CRAWL_OPTION_SPECS) expect(Object.keys(CRAWL_FLAGS)).toContain(s.flag);
  });

  it('keeps lines under 120 characters', () => {
    expect(CRAWL_USAGE.split('\n').filter((l) => l.length > 120)).toEqual([]);
  });
});

describe('the specs', () => {
  it('give the defaults the crawl had before they were specs', () => {
    expect(DEFAULT_CRAWL_OPTIONS).toMatchObject({
      strategy: 'fc-r+hr',
      bandit: 'auto',
      reward: 'rdf-docs',
      maxDocs: 1000,
      maxDocsPerPld: Number.POSITIVE_INFINITY,
      maxLinksPerDoc: 500,
      maxDepth: Number.POSITIVE_INFINITY,
      concurrency: 5,
      hostConcurrency: 1,
      delayMs: 1000,
      proxy: null,
      allowPrivate: false,
      rejudgeQueued: true,
      rdfShare: 0.5,
      scope: 'seeds',
      offsiteHops: 0,
      include: [],
      maxOfflineMs: 600_000,
      maxRetries: 2,
      seed: 1,
      userAgent: null,
    });
    expect([...IDENTITY_KEYS].sort()).toEqual(['bandit', 'exclude', 'followRdfLinks', 'include', 'maxLinksPerDoc', 'normalize', 'offsiteHops', 'queues', 'reward', 'scope', 'seed', 'strategy']);
    expect(NETWORK_KEYS).toEqual(expect.arrayContaining(['proxy', 'allowPrivate', 'userAgent', 'connectTimeoutMs', 'totalTimeoutMs']));
  });

  it('parse every flag of the command line into its option', async () => {
    const { explicit } = await crawlOptionsFromArgs([
      ...['http://a.org/', '--out', 'o', '--strategy', 'yield', '--bandit', 'none', '--reward', 'triples', '--max-docs', 'inf', '--max-docs-per-pld', '7'],
      ...['--fixed-labels', '--allow-private', '--proxy', 'http://127.0.0.1:9', '--include', '*/a/*', '--include', '*/b/*', '--rdf-share', '0.25'],
      ...['--connect-timeout-ms', '1234', '--user-agent', 'probe/1', '--max-depth', '0', '--queues', 'two', '--no-remote-contexts'],
    ]);
    expect(explicit).toEqual({
      out: 'o',
      seeds: ['http://a.org/'],
      strategy: 'yield',
      bandit: 'none',
      reward: 'triples',
      maxDocs: Number.POSITIVE_INFINITY,
      maxDocsPerPld: 7,
      rejudgeQueued: false,
      allowPrivate: true,
      proxy: 'http://127.0.0.1:9',
      include: ['*/a/*', '*/b/*'],
      rdfShare: 0.25,
      connectTimeoutMs: 1234,
      userAgent: 'probe/1',
      maxDepth: 0,
      queues: 'two',
      remoteContexts: false,
    });
  });

  it('refuse a bad value naming the flag, and a near miss among the choices', async () => {
    await expect(crawlOptionsFromArgs(['--out', 'o', '--strategy', 'fcr'])).rejects.toThrow(/--strategy must be one of bfs, fc-r\+hr, .*yield \(got fcr\) \(did you mean fc-r\?\)/);
    await expect(crawlOptionsFromArgs(['--out', 'o', '--max-docs', '0'])).rejects.toThrow('--max-docs must be a whole number ≥ 1 (got 0).');
    await expect(crawlOptionsFromArgs(['--out', 'o', '--rdf-share', 'half'])).rejects.toThrow('--rdf-share must be a number from 0 to 1 (got half).');
    expect(() => resolveCrawlOptions({ out: 'o', concurrency: 1.5 })).toThrow('--concurrency must be a whole number ≥ 1 (got 1.5).');
  });

  it('keep a proxy password out of what is stored, and say so', () => {
    const o = resolveCrawlOptions({ out: 'o', proxy: 'http://ann:s3cret@127.0.0.1:8080' });
    const { json, omitted } = storableOptions(o);
    expect(JSON.stringify(json)).not.toContain('s3cret');
    expect(json.proxy).toBe('http://ann@127.0.0.1:8080/');
    expect(omitted).toEqual(['proxy']);
    expect(storableOptions(resolveCrawlOptions({ out: 'o', proxy: 'http://127.0.0.1:8080' })).omitted).toEqual([]);
  });
});

describe('a resume', () => {
  const tmp = useTempState();

  it('that changes identity options is refused naming every such flag with both values', async () => {
    await saveCrawlOptions(tmp.state, resolveCrawlOptions({ out: tmp.dir, seeds: ['http://a.org/'], strategy: 'bfs', include: ['*/x/*'] }));
    const given = { out: tmp.dir, strategy: 'fc-r', followRdfLinks: true, include: ['*/x/*'], maxDocs: 5 };
    await expect(loadCrawlOptions(tmp.state, given)).rejects.toMatchObject({
      code: 'RDFSCOUT_RESUME_CONFLICT',
      message: expect.stringContaining('holds a crawl with no --follow-rdf-links, --strategy bfs; this command asks for --follow-rdf-links, --strategy fc-r.'),
    });
    await expect(loadCrawlOptions(tmp.state, given)).rejects.toThrow(/resume it without --follow-rdf-links, --strategy, or crawl into a new --out folder/);
    // the same values, or none, resume; a budget may change
    const { options, resumed } = await loadCrawlOptions(tmp.state, { out: tmp.dir, strategy: 'bfs', maxDocs: 5 });
    expect({ resumed, strategy: options.strategy, maxDocs: options.maxDocs, include: options.include }).toEqual({ resumed: true, strategy: 'bfs', maxDocs: 5, include: ['*/x/*'] });
  });

  it('names each flag as the user writes it, a negated one too', () => {
    expect(describeConflicts('d', identityConflicts({ seed: 1 }, { seed: 2 }, ['seed']))).toContain('d holds a crawl with --seed 1; this command asks for --seed 2.');
    const negated = describeConflicts('d', [{ key: 'rejudgeQueued', before: true, given: false }]);
    expect(negated).toContain('d holds a crawl with no --fixed-labels; this command asks for --fixed-labels.');
  });

  it('keeps the network options, says which it reused, and asks again for a proxy password it did not store', async () => {
    await saveCrawlOptions(tmp.state, resolveCrawlOptions({ out: tmp.dir, seeds: ['http://a.org/'], proxy: 'http://ann:s3cret@127.0.0.1:8080', allowPrivate: true, userAgent: 'probe/1' }));
    await expect(loadCrawlOptions(tmp.state, { out: tmp.dir })).rejects.toMatchObject({
      code: 'RDFSCOUT_INVALID_ARGUMENT',
      message: expect.stringMatching(/ran with --proxy \(http:\/\/ann@127\.0\.0\.1:8080\/\), whose password is not stored: give --proxy again/),
    });
    const { options } = await loadCrawlOptions(tmp.state, { out: tmp.dir, proxy: 'http://ann:s3cret@127.0.0.1:8080' });
    expect(options).toMatchObject({ proxy: 'http://ann:s3cret@127.0.0.1:8080', allowPrivate: true, userAgent: 'probe/1' });
    expect(keptNetworkOptions({ out: tmp.dir, proxy: 'http://ann:s3cret@127.0.0.1:8080' }, options)).toEqual(['--allow-private', '--user-agent probe/1']);
  });
});
